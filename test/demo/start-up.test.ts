import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillFirstStart, recordPast, HISTORY_MINUTES } from '../../src/demo/start-up.js';
import { ASSETS, STRATEGIES } from '../../src/arena/paper-trader.js';
import { registry } from '../../src/sources/registry.js';
import { STORE_BACKENDS } from '../helpers/backends.js';
import type { TestApp } from '../helpers/app.js';
import { clientOf, startDemoApp } from './helpers.js';

/** What `npm run demo` writes before it listens: the last hour of history, and on a first start the arena and olympics. */
const NOW = Date.UTC(2027, 2, 10, 16, 0, 0);
const nowS = NOW / 1000;

describe.each(STORE_BACKENDS)('demo start-up on %s', (backend) => {
  let t: TestApp;
  let asked = 0;
  let backfilled: Awaited<ReturnType<typeof backfillFirstStart>>;
  beforeAll(async () => {
    t = await startDemoApp(NOW, { postgres: backend === 'postgres' });
    expect(await recordPast(t.deps, t.sim)).toBe(HISTORY_MINUTES - 1);
    backfilled = await backfillFirstStart(t.app, t.deps);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = async (url: string, query: Record<string, string> = {}) => {
    const res = await t.app.inject({ url, query, remoteAddress: clientOf(asked++) });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers snapshot?ago=30 with the basket as it was then', async () => {
    const then = await get('/api/v1/snapshot', { ago: '30' });
    expect(then.status, JSON.stringify(then.body).slice(0, 300)).toBe(200);
    expect(then.body.data.taken_at).toBe(NOW - 30 * 60_000);
    expect(then.body.data.items.every((i: { ok: boolean }) => i.ok)).toBe(true);
    const earlier = (await get('/api/v1/snapshot', { ago: String(HISTORY_MINUTES - 1) })).body;
    type Snapshot = { data: { items: { key: string; rows: { usd: number }[] }[] } };
    const price = (snapshot: Snapshot) => snapshot.data.items.find((i) => i.key === 'crypto')!.rows[0]!.usd;
    expect(price(earlier)).not.toBe(price(then.body));
  });

  it('answers preview?as_of 30 minutes ago for every catalog example, and since= against that answer', async () => {
    for (const d of registry.all()) {
      const then = (await get('/api/data/preview', { type: d.type, q: d.example, as_of: String(nowS - 1800) })).body;
      expect(then, `${d.type}: ${JSON.stringify(then).slice(0, 200)}`).toMatchObject({ ok: true, from_history: true, source_mode: 'demo' });
      expect(then.fetched_at).toBeLessThanOrEqual(NOW - 1800_000);
      const since = (await get('/api/data/preview', { type: d.type, q: d.example, since: then._cursor })).body;
      expect(since.ok, `${d.type}: ${JSON.stringify(since).slice(0, 200)}`).toBe(true);
    }
  });

  it('has an arena track record for every strategy and asset, replayed over the last days', async () => {
    expect(backfilled.arena).toBe(true);
    for (const strategy of STRATEGIES) {
      for (const asset of ASSETS) {
        const { status, body } = await get('/api/v1/arena/track-record', { strategy, asset });
        expect(status, `${strategy} ${asset}: ${JSON.stringify(body).slice(0, 200)}`).toBe(200);
      }
    }
    const trades = await Promise.all(ASSETS.map((asset) => t.deps.repos.arena.trades(STRATEGIES[0], asset)));
    expect(trades.flat().length).toBeGreaterThan(0);
  });

  it('has olympics events answered by the demo panel with plausible, varied probabilities', async () => {
    expect(backfilled.olympics).toBeGreaterThan(0);
    const { body } = await get('/api/v1/olympics/events', { mode: 'backfill', limit: '50' });
    expect(body.events.length).toBeGreaterThan(0);
    const ps = body.events.flatMap((e: { answers: { p: number | null }[] }) => e.answers.map((a) => a.p));
    expect(ps.every((p: number | null) => p !== null && p > 0 && p < 1)).toBe(true);
    expect(new Set(ps).size).toBeGreaterThan(3);
  });

  it('backfills only on a first start, and a restart within the hour records only the minutes it has not', async () => {
    expect(await backfillFirstStart(t.app, t.deps)).toEqual({ arena: false, olympics: 0 });
    expect(await recordPast(t.deps, t.sim)).toBe(0);
    t.clock.advance(5 * 60_000);
    expect(await recordPast(t.deps, t.sim)).toBe(5);
    t.clock.set(NOW);
  });
});
