import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { clientOf, startDemoApp } from '../demo/helpers.js';

/** A Saturday (2027-03-13, 15:00 UTC): US markets closed since Friday 21:00 UTC, currencies since Saturday 00:00 UTC. */
const NOW_S = Date.parse('2027-03-13T15:00:00Z') / 1000;
const FRIDAY_CLOSE_S = Date.parse('2027-03-12T21:00:00Z') / 1000;
const DAY = 86_400;

let t: TestApp;
let asked = 0;
beforeAll(async () => {
  t = await startDemoApp(NOW_S * 1000);
}, 30_000);
afterAll(() => t.close());

const get = async (url: string, query: Record<string, string>) => {
  const res = await t.app.inject({ url, query, remoteAddress: clientOf(asked++) });
  return { status: res.statusCode, body: res.json() };
};
const preview = (type: string, q: string) => get('/api/data/preview', { type, q });
const backtest = (type: string, q: string, interval = '1h', days = 30) =>
  get('/api/v1/backtest', { type, q, interval, from: String(NOW_S - days * DAY), to: String(NOW_S), free: '1' });

describe('one vocabulary per type, on every endpoint', () => {
  it.each([
    ['crypto-price', ['bitcoin', 'BTC', 'btc', 'Bitcoin', 'BTCUSDT', 'svc-ent:cr.bitcoin'], 'bitcoin'],
    ['stock-quote', ['AAPL', 'aapl', 'svc-ent:eq.aapl'], 'AAPL'],
    ['forex', ['EUR:USD', 'EUR/USD', 'eurusd', 'svc-ent:fx.eurusd'], 'EUR:USD'],
  ])('%s: every form answers the same preview and the same backtest', async (type, forms, canonical) => {
    const previews = await Promise.all(forms.map((q) => preview(type, q)));
    for (const p of previews) expect(p.body, JSON.stringify(p.body).slice(0, 200)).toMatchObject({ ok: true, q: canonical });
    expect(new Set(previews.map((p) => JSON.stringify(p.body.preview))).size).toBe(1);
    const backtests = await Promise.all(forms.map((q) => backtest(type, q)));
    for (const b of backtests) expect(b.status, JSON.stringify(b.body).slice(0, 200)).toBe(200);
    expect(new Set(backtests.map((b) => JSON.stringify(b.body.data))).size).toBe(1);
  });

  it('a bundle and a stream filter take the same forms', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle?free=1',
      payload: { queries: [{ type: 'crypto-price', q: 'ETH' }, { type: 'forex', q: 'svc-ent:fx.eurusd' }] },
      remoteAddress: clientOf(asked++),
    });
    expect(res.json().queries).toEqual([
      { type: 'crypto-price', q: 'ethereum' },
      { type: 'forex', q: 'EUR:USD' },
    ]);
  });

  it('the catalog says which forms each type accepts', async () => {
    const { body } = await get('/api/v1/catalog', {});
    const entry = (type: string) => body.data_types.find((d: { type: string }) => d.type === type);
    expect(entry('crypto-price').q_forms).toEqual(expect.arrayContaining(['symbols such as BTC', expect.stringMatching(/^svc-ent:/)]));
    expect(entry('forex').q_forms).toContain('<base>/<symbol> (EUR/USD)');
    expect(entry('news-hn-top').q_forms).toEqual(['(empty)']);
  });
});

describe("a caller's mistake is a 4xx, never an outage", () => {
  it('an unknown coin is a 404 unknown_symbol naming q, with suggestions from the entity graph, in preview and backtest', async () => {
    const previewed = await preview('crypto-price', 'bitcoinn');
    expect(previewed.status).toBe(404);
    expect(previewed.body).toMatchObject({ error: 'unknown_symbol', details: { field: 'q' } });
    expect(previewed.body.details.suggestions[0]).toEqual({ q: 'bitcoin', entity: 'svc-ent:cr.bitcoin', name: 'Bitcoin' });
    const tested = await backtest('crypto-price', 'bitcoinn');
    expect(tested.status).toBe(404);
    expect(tested.body).toMatchObject({ error: 'unknown_symbol', details: { field: 'q', q: 'bitcoinn' } });
    expect(tested.body.message).toMatch(/did you mean bitcoin/);
  });

  it('an unknown ticker: Yahoo answers 404 in the demo world as it does for real, and svc answers a 404, not a 503', async () => {
    const chart = await fetch(`${t.sim.url}/yahoo/v8/finance/chart/ZZZQX?interval=1d&range=5d`);
    expect(chart.status).toBe(404);
    expect(await chart.json()).toMatchObject({ chart: { result: null, error: { description: expect.stringMatching(/No data found/) } } });
    expect((await preview('stock-quote', 'ZZZQX')).body).toMatchObject({ error: 'unknown_symbol', details: { field: 'q' } });
    expect((await backtest('stock-quote', 'APPL')).body).toMatchObject({ error: 'unknown_symbol', details: { q: 'APPL' } });
    expect((await backtest('forex', 'EUR:XYZ', '1d')).status).toBe(404);
  });

  it.each([
    ['ta-indicators', 'ETHH:1h', 'ETH:1h'],
    ['funding-rates', 'ETHH', 'ETH'],
    ['order-book', 'binance:ETHHUSDT', 'binance:ETHUSDT'],
  ])('%s: an unknown asset %s is a 404 unknown_symbol suggesting %s, as crypto-price', async (type, q, suggested) => {
    const { status, body } = await preview(type, q);
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: 'unknown_symbol', details: { field: 'q' } });
    expect(body.details.suggestions.map((s: { q: string }) => s.q)).toContain(suggested);
  });

  it('a bundle row for an unknown symbol says unknown_symbol with its suggestions', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/bundle?free=1',
      payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }, { type: 'stock-quote', q: 'MSFTT' }] },
      remoteAddress: clientOf(asked++),
    });
    expect(res.statusCode).toBe(200);
    const [known, unknown] = res.json().results;
    expect(known.ok).toBe(true);
    expect(unknown).toMatchObject({ ok: false, error: 'unknown_symbol', data: { error: 'unknown_symbol', details: { field: 'q' } } });
    expect(unknown.data.details.suggestions.map((s: { q: string }) => s.q)).toContain('MSFT');
  });

  it('an entity id the type cannot use is a 400 naming q', async () => {
    expect((await preview('forex', 'svc-ent:eq.aapl')).body).toMatchObject({ error: 'entity_unsupported', details: { field: 'q' } });
  });
});

describe('the last 100 candles are the last 100 that exist', () => {
  it.each(['1m', '5m', '15m'])('a stock at %s on a Saturday: 100 candles, the last closing at Friday’s close', async (interval) => {
    const { status, body } = await backtest('stock-quote', 'AAPL', interval);
    expect(status).toBe(200);
    expect(body.count).toBe(100);
    const stepS = { '1m': 60, '5m': 300, '15m': 900 }[interval]!;
    expect(body.data.at(-1).t + stepS).toBe(FRIDAY_CLOSE_S);
  });

  it('forex at 1m on a Saturday: the last 100 minutes of Friday', async () => {
    const { body } = await backtest('forex', 'EUR:USD', '1m');
    expect(body.count).toBe(100);
    expect(body.data.at(-1).t).toBe(Date.parse('2027-03-13T00:00:00Z') / 1000 - 60);
    expect(body.market_state).toBe('closed');
    expect((await backtest('crypto-price', 'BTC', '1m')).body).not.toHaveProperty('market_state');
  });
});
