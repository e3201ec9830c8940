import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Issue 35, item 1: every row says how fresh it is, at the moment of each answer, wherever it is served. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
});

const get = (url: string) => t.app.inject({ url, remoteAddress: '10.9.0.1' });
const nowS = () => Math.floor(t.clock.now() / 1000);
/** crypto-price: TTL 30 s; CoinGecko gives each price's own time (last_updated_at). */
const BTC = '/api/data/preview?type=crypto-price&q=bitcoin';

describe('freshness on every row', () => {
  it('a fresh row: as_of from the upstream (source), age_s since it, stale false; the age grows per answer', async () => {
    const first = (await get(`${BTC}&max_age=0`)).json();
    expect(first.preview).toMatchObject({ as_of_kind: 'source', stale: false, age_s: nowS() - first.preview.as_of });
    expect(first.preview.as_of).toBeLessThan(1e10);
    t.clock.advance(10_000);
    const later = (await get(BTC)).json();
    expect(later).toMatchObject({ cached: true, stale: false });
    expect(later.preview.age_s).toBe(first.preview.age_s + 10);
  });

  it('a row served past its TTL (the upstream failing meanwhile) says stale: true', async () => {
    await get(`${BTC}&max_age=0`);
    t.sim.fault('coingecko', { kind: 'status', status: 503 });
    t.sim.fault('binance', { kind: 'status', status: 503 });
    t.clock.advance(31_000);
    const body = (await get(BTC)).json();
    expect(body).toMatchObject({ ok: true, cached: true, stale: true, preview: { stale: true } });
  });

  it('a time-machine answer past the TTL says stale: true with its age now', async () => {
    const recorded = (await get(`${BTC}&max_age=0`)).json();
    const at = nowS();
    t.clock.advance(120_000);
    const body = (await get(`${BTC}&as_of=${at}`)).json();
    expect(body).toMatchObject({ from_history: true, stale: true, preview: { stale: true, as_of: recorded.preview.as_of } });
    expect(body.preview.age_s).toBe(nowS() - recorded.preview.as_of);
  });

  it('a type whose upstream gives no observation time says as_of_kind: fetched, at the fetch', async () => {
    const body = (await get('/api/data/preview?type=gas-prices-eth&max_age=0')).json();
    expect(body.preview).toMatchObject({ as_of_kind: 'fetched', as_of: Math.floor(body.fetched_at / 1000), age_s: 0, stale: false });
  });

  it('a type published on a schedule says next_update_at: ECB rates on the next business day at 16:00 CET', async () => {
    const row = (await get('/api/data/preview?type=forex&q=EUR:USD&max_age=0')).json().preview;
    expect(row).toMatchObject({ provider: 'ECB reference rate', as_of_kind: 'source' });
    const next = new Date(row.next_update_at * 1000);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([15, 0]);
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());
    expect(row.next_update_at - row.as_of).toBeGreaterThan(0);
    expect(row.next_update_at - row.as_of).toBeLessThanOrEqual(3 * 86_400);
  });

  it('bundles and snapshots carry the fields on every row, aged at the answer', async () => {
    const bundle = (
      await t.app.inject({
        method: 'POST',
        url: '/api/data/bundle?free=1',
        payload: { queries: [{ type: 'crypto-price', q: 'ethereum' }, { type: 'forex', q: 'EUR:USD' }] },
      })
    ).json();
    for (const result of bundle.results)
      expect(result.data.results[0]).toMatchObject({ as_of_kind: expect.stringMatching(/^(source|fetched)$/), age_s: expect.any(Number), stale: false });
    await t.app.scheduler.tick();
    t.clock.advance(5 * 60_000);
    const items = (await get('/api/v1/snapshot?ago=5')).json().data.items as { ok: boolean; rows?: Record<string, unknown>[] }[];
    const rows = items.flatMap((i) => i.rows ?? []);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.age_s).toBe(Math.max(0, nowS() - (row.as_of as number)));
      expect(typeof row.stale).toBe('boolean');
    }
  });
});
