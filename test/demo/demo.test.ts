import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/ports.js';
import { entryArgs } from '../helpers/entry.js';

/** Starts the real entry point (what `npm run demo` runs) and talks to it over a socket. */
let base = '';
let child: ChildProcess;
let log = '';

/**
 * The demo records its last hour and backfills the arena and olympics before it listens (a few seconds on an idle
 * machine, many more on a loaded 2-core runner).
 */
const START_UP_MS = 150_000;

async function waitUntilUp(): Promise<void> {
  for (const until = Date.now() + START_UP_MS; Date.now() < until;) {
    if (child.exitCode !== null) throw new Error(`demo exited (${child.exitCode}) before it listened:\n${log}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`demo did not start:\n${log}`);
}

beforeAll(async () => {
  // A port picked at random could be one the kernel already gave another test's listener (or client): ask for a free one.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [...entryArgs('src/main.ts')], {
    env: {
      ...process.env,
      SVC_DEMO: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-demo-')),
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  await waitUntilUp();
}, START_UP_MS + 5_000);

afterAll(() => {
  child.kill('SIGTERM');
});

const getJson = async (path: string) => (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;

describe('SVC_DEMO=1', () => {
  it('says so at start-up and stamps answers and receipts with source_mode "demo"', async () => {
    expect(log).toContain('SVC_DEMO=1: every upstream is served by the demo world');
    const body = await getJson('/api/data/preview?type=weather&q=40.71,-74.01');
    expect(body).toMatchObject({ ok: true, source: 'open-meteo', source_mode: 'demo', preview: { lat: 40.6905 } });
    expect(Math.floor(Date.now() / 1000) - (body.as_of as number)).toBeLessThan(16 * 60);
    expect(body._receipt).toMatchObject({ v: 1, sources: ['open-meteo'], source_mode: 'demo' });
  });

  it('has history, snapshots, arena trades and olympics events as soon as it listens', async () => {
    expect(await getJson('/api/v1/snapshot?ago=30')).toMatchObject({ source_mode: 'demo', data: { ago_minutes: 30 } });
    const asOf = Math.floor(Date.now() / 1000) - 1800;
    expect(await getJson(`/api/data/preview?type=crypto-price&q=bitcoin,ethereum&as_of=${asOf}`)).toMatchObject({
      ok: true,
      from_history: true,
    });
    expect(((await getJson('/api/v1/olympics/events?mode=backfill')).events as unknown[]).length).toBeGreaterThan(0);
    const record = await getJson('/api/v1/arena/track-record?strategy=rsi2_mean_reversion&asset=BTC');
    expect(record.backfill_trade_count).toBeGreaterThan(0);
  });

  it('lists every data type in the catalog', async () => {
    const catalog = (await (await fetch(`${base}/api/v1/catalog`)).json()) as { count: number };
    expect(catalog.count).toBe(43);
  });
});
