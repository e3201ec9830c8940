import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { coinGeckoAlone } from '../helpers/corroboration.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearOverrides();
  t.sim.clearFaults();
  coinGeckoAlone(t.sim);
  t.sim.resetHits();
});

const preview = (query: Record<string, string>) => t.app.inject({ url: '/api/data/preview', query });
const price = (btc: number, eth = 3500.1) => ({
  host: 'coingecko',
  path: '/api/v3/simple/price',
  body: { bitcoin: { usd: btc, last_updated_at: 1763812800 }, ethereum: { usd: eth, last_updated_at: 1763812800 } },
});

describe('preview', () => {
  it('serves repeated previews from cache, saying so, without restamping fetched_at', async () => {
    const first = (await preview({ type: 'weather', q: '51.5,-0.12', max_age: '0' })).json();
    expect(first).toMatchObject({ ok: true, cached: false, source: 'open-meteo', fetched_at: t.clock.now() });
    t.clock.advance(10_000);
    const second = (await preview({ type: 'weather', q: '51.5,-0.12' })).json();
    expect(second).toMatchObject({ ok: true, cached: true, fetched_at: first.fetched_at });
    expect(t.sim.hits('open-meteo')).toBe(1);
  });

  it('max_age bounds staleness and 0 forces a fresh fetch', async () => {
    await preview({ type: 'weather', q: '48.85,2.35', max_age: '0' });
    t.clock.advance(60_000);
    expect((await preview({ type: 'weather', q: '48.85,2.35', max_age: '120' })).json().cached).toBe(true);
    expect((await preview({ type: 'weather', q: '48.85,2.35', max_age: '30' })).json().cached).toBe(false);
    expect(t.sim.hits('open-meteo')).toBe(2);
  });

  it('since=<cursor>: slim answer when unchanged, full answer with a diff when changed', async () => {
    t.sim.serve(price(90_000));
    const first = (await preview({ type: 'crypto-price', q: 'bitcoin,ethereum', max_age: '0' })).json();
    expect(first.preview).toMatchObject({ coin: 'bitcoin', usd: 90_000 });

    const same = (await preview({ type: 'crypto-price', q: 'bitcoin,ethereum', since: first._cursor, max_age: '0' })).json();
    expect(same).toEqual({ ok: true, changed: false, _cursor: first._cursor, _receipt: expect.any(Object) });

    t.sim.serve(price(91_000));
    const moved = (await preview({ type: 'crypto-price', q: 'bitcoin,ethereum', since: first._cursor, max_age: '0' })).json();
    expect(moved.changed).toBe(true);
    expect(moved._cursor).not.toBe(first._cursor);
    expect(moved.diff).toEqual({ added: [], removed: [], updated: [expect.objectContaining({ coin: 'bitcoin', usd: 91_000 })] });
    expect(moved.diff_base).toBe('cursor');
  });

  it('refuses forged and foreign cursors', async () => {
    const { _cursor } = (await preview({ type: 'weather', q: '40.71,-74.01' })).json();
    const forged = `${_cursor.slice(0, -2)}xx`;
    expect((await preview({ type: 'weather', q: '40.71,-74.01', since: forged })).json()).toMatchObject({ error: 'invalid_cursor' });
    const foreign = await preview({ type: 'weather', q: '10,10', since: _cursor });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toContain('another type or q');
  });

  it('as_of answers from history within the last 60 minutes', async () => {
    t.sim.serve(price(80_000));
    await preview({ type: 'crypto-price', q: 'bitcoin', max_age: '0' });
    const recordedAt = Math.floor(t.clock.now() / 1000);
    t.clock.advance(5 * 60_000);
    t.sim.serve(price(85_000));
    await preview({ type: 'crypto-price', q: 'bitcoin', max_age: '0' });

    const past = (await preview({ type: 'crypto-price', q: 'bitcoin', as_of: String(recordedAt + 60) })).json();
    expect(past, JSON.stringify(past)).toMatchObject({ ok: true, from_history: true, preview: { usd: 80_000 } });
    const iso = new Date((recordedAt + 60) * 1000).toISOString();
    const fromIso = (await preview({ type: 'crypto-price', q: 'bitcoin', as_of: iso })).json();
    expect(fromIso.preview?.usd, JSON.stringify(fromIso)).toBe(80_000);
    expect((await preview({ type: 'crypto-price', q: 'bitcoin', as_of: String(recordedAt + 300) })).json().preview.usd).toBe(85_000);

    const tooOld = await preview({ type: 'crypto-price', q: 'bitcoin', as_of: String(recordedAt - 3600) });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().details).toMatchObject({ field: 'as_of', rule: 'range' });
    const none = await preview({ type: 'crypto-price', q: 'solana', as_of: String(recordedAt) });
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('no_history');
  });

  it('shares one upstream call among 1,000 concurrent identical previews', async () => {
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => preview({ type: 'economic-indicator', q: 'DGS10', max_age: '0' })),
    );
    expect(results.every((r) => r.statusCode === 200 && r.json().ok)).toBe(true);
    expect(t.sim.hits('fred', '/fred/series/observations')).toBe(1);
  });

  it('translates entity= into the type\'s q, and names the supported types when it cannot', async () => {
    expect((await preview({ type: 'crypto-price', entity: 'svc-ent:cr.bitcoin' })).json()).toMatchObject({ ok: true, q: 'bitcoin', preview: { coin: 'bitcoin' } });
    const unsupported = await preview({ type: 'weather', entity: 'svc-ent:eq.aapl' });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toMatchObject({ error: 'entity_unsupported', details: { field: 'entity', supported_types: ['stock-quote'] } });
    expect((await preview({ type: 'crypto-price', entity: 'svc-ent:cr.nope' })).statusCode).toBe(404);
    expect((await preview({ type: 'crypto-price', entity: 'bitcoin' })).json().details).toMatchObject({ field: 'entity', rule: 'pattern' });
    expect((await preview({ type: 'crypto-price', entity: 'svc-ent:cr.bitcoin', q: 'ethereum' })).statusCode).toBe(400);
  });
});
