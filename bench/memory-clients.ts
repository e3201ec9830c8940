/**
 * Memory per client address (audit finding 2): the server's used heap after 50,000 distinct client
 * addresses have each sent a request, and again once every TTL their requests started has passed,
 * against the heap after start-up. The in-process cache (no Redis) holds a rate bucket, a tally and,
 * for a 4xx, an abuse counter per address; they must all go. The clock is the injected manual one,
 * so "once the TTLs have passed" costs no waiting. Target: back within 5 MB of the baseline.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ManualClock } from '../src/core/clock.js';
import { createDeps } from '../src/deps.js';
import { round } from './lib.js';

const CLIENTS = 50_000;
/** The longest TTL a request starts: the per-minute figures, kept for an hour and a minute. */
const LONGEST_TTL_MS = 61 * 60_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Lets the event loop turn: inject's stream clean-up runs in setImmediate callbacks, which a loop of awaits never reaches. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function usedHeapMb(): Promise<number> {
  await turn();
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 1_048_576;
}

/** An IPv6 address per client: a client that rotates addresses within its /64 at will. */
const clientAddress = (i: number) => `2001:db8:0:1::${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}`;

export async function memoryClients() {
  const clock = new ManualClock();
  const config = loadConfig({
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_SCHEDULER: '0',
    SVC_RATE_ANON_PER_MIN: '100000000',
    LOG_LEVEL: 'silent',
  });
  const deps = await createDeps(config, { clock });
  const app = await buildApp(deps);
  await app.ready();
  try {
    // Warm every code path first, so the baseline holds the compiled code and lazily built state.
    for (let i = 0; i < 200; i++) await app.inject({ url: i % 2 ? '/api/v1/catalog' : '/no-such-route', remoteAddress: '192.0.2.1' });
    const baselineMb = await usedHeapMb();
    const started = performance.now();
    for (let i = 0; i < CLIENTS; i++) {
      // Half answered 200, half 404 (a 4xx adds an abuse counter).
      await app.inject({ url: i % 2 ? '/api/v1/catalog' : '/no-such-route', remoteAddress: clientAddress(i) });
      if (i % 100 === 0) await turn();
    }
    const requestsPerS = CLIENTS / ((performance.now() - started) / 1000);
    const afterClientsMb = await usedHeapMb();
    clock.advance(LONGEST_TTL_MS + 60_000);
    await app.inject({ url: '/api/v1/catalog', remoteAddress: '192.0.2.1' });
    const afterTtlMb = await usedHeapMb();
    return {
      clients: CLIENTS,
      requests_per_s: Math.round(requestsPerS),
      used_heap_mb: { baseline: round(baselineMb, 1), after_clients: round(afterClientsMb, 1), after_ttls: round(afterTtlMb, 1) },
      growth_mb_while_held: round(afterClientsMb - baselineMb, 1),
      growth_mb_after_ttls: round(afterTtlMb - baselineMb, 1),
      target_growth_mb_after_ttls: 5,
    };
  } finally {
    await app.close();
    await deps.close();
  }
}
