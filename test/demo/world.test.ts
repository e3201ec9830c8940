import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVAL_SECONDS } from '../../src/core/candles.js';
import { intervalsOf, type BacktestType } from '../../src/backtest/providers/index.js';
import { Market } from '../../src/demo/market.js';
import { coins } from '../../src/demo/world/coins.js';
import { registry } from '../../src/sources/registry.js';
import type { TestApp } from '../helpers/app.js';
import { clientOf, DEMO_SEED, startDemoApp } from './helpers.js';
import { SPEC_QUERIES } from './q-shapes.js';

/**
 * How old a real upstream's newest value is at most, on a weekday afternoon (UTC) while US markets are open: the bound
 * each type's `as_of` must meet in the demo. Types not listed stamp their rows with the fetch time (or a live quote).
 */
const HOUR = 3600;
const DAY = 86_400;
const MAX_AGE_S: Record<string, number> = {
  weather: 15 * 60,
  'air-quality': 2 * HOUR,
  'energy-grid-eu': 2 * HOUR,
  'sec-edgar': HOUR,
  'gdelt-events': HOUR,
  'sentiment-ticker': 3 * HOUR,
  forex: 1.5 * DAY,
  'economic-indicator': 4 * DAY,
  'commodity-metals': 2 * DAY,
  'shipping-bdi': 2 * DAY,
  'steam-top': 2 * DAY,
  'legal-courtlistener': 3 * DAY,
  'energy-oil': 9 * DAY,
  'cdc-flu': 8 * DAY,
  'who-outbreak': 7 * DAY,
  'real-estate-rss': 14 * DAY,
  'acled-conflict': 14 * DAY,
  'agriculture-prices': 75 * DAY,
};
const LIVE_MAX_AGE_S = 120;

/**
 * The instant the suite runs at: a weekday hour in the US session (2027-03-09 to 03-11, 15:00–20:00 UTC) at which
 * bitcoin is among the 20 biggest 24 h movers of its direction, so the gainers list shows it too.
 */
function pickInstant(): number {
  const market = new Market(DEMO_SEED);
  for (let day = 9; day <= 11; day++) {
    for (let hour = 15; hour <= 20; hour++) {
      const t = Date.UTC(2027, 2, day, hour) / 1000;
      const moves = coins(market).map((c) => ({ symbol: c.symbol, move: market.change(`crypto:${c.symbol}`, t) }));
      const btc = moves.find((m) => m.symbol === 'BTC')!.move;
      if (moves.filter((m) => Math.sign(m.move) === Math.sign(btc) && Math.abs(m.move) > Math.abs(btc)).length < 15) return t * 1000;
    }
  }
  throw new Error('no instant with bitcoin among the top movers');
}

const NOW = pickInstant();
const nowS = NOW / 1000;
let t: TestApp;
let asked = 0;
beforeAll(async () => {
  t = await startDemoApp(NOW);
}, 30_000);
afterAll(async () => {
  await t.close();
});

const get = async (url: string, query: Record<string, string> = {}) => {
  const res = await t.app.inject({ url, query, remoteAddress: clientOf(asked++) });
  return { status: res.statusCode, body: res.json() };
};
const preview = async (type: string, q: string) => (await get('/api/data/preview', { type, q })).body;

describe('SVC_DEMO=1: every catalog example answers from the demo world, as fresh as its real upstream', () => {
  it.each(registry.all().map((d) => [d.type, d.example] as const))('%s %s', async (type, q) => {
    const body = await preview(type, q);
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, source_mode: 'demo' });
    expect(body._receipt.source_mode).toBe('demo');
    expect(body.source).toBe(Object.keys(registry.get(type)!.upstreams)[0]);
    expect(nowS - body.as_of).toBeGreaterThanOrEqual(0);
    expect(nowS - body.as_of).toBeLessThanOrEqual(MAX_AGE_S[type] ?? LIVE_MAX_AGE_S);
  });
});

describe('SVC_DEMO=1: every q shape of the spec answers', () => {
  it.each(SPEC_QUERIES)('%s %s', async (type, q) => {
    const body = await preview(type, q);
    expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ ok: true, source_mode: 'demo' });
  });
});

describe('demo receipts', () => {
  it('say source_mode "demo" inside what is signed, and verify as demo', async () => {
    const { _receipt, ...response } = await preview('weather', '40.71,-74.01');
    const verify = (receipt: unknown) => t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt, response } });
    expect((await verify(_receipt)).json()).toMatchObject({ valid: true, source_mode: 'demo' });
    expect((await verify({ ..._receipt, source_mode: undefined })).json()).toMatchObject({ valid: false });
  });
});

describe('one world', () => {
  it('shows one bitcoin price in crypto-price, the order book, ta-indicators, backtest, gainers and agent-context', async () => {
    const usd = (await preview('crypto-price', 'bitcoin')).preview.usd as number;
    const book = (await preview('order-book', 'binance:BTCUSDT')).preview.mid as number;
    const ta = (await preview('ta-indicators', 'BTC:1h')).preview.close as number;
    const range = { from: String(nowS - DAY), to: String(nowS) };
    const backtest = (await get('/api/v1/backtest', { type: 'crypto-price', q: 'BTC', interval: '1h', ...range, free: '1' })).body;
    const lastCandle = backtest.data.at(-1);
    const movers = await Promise.all(['up', 'down'].map((dir) => get('/api/v1/gainers', { type: 'crypto', dir, limit: '20' })));
    const gainer = movers.flatMap((m) => m.body.top as { ticker: string; price: number }[]).find((m) => m.ticker === 'BTC');
    const context = (await get('/api/v1/agent-context', { goal: 'should I buy bitcoin today' })).body;
    const inContext = context.context.primary.find((p: { type: string }) => p.type === 'crypto-price').data.results[0].usd;

    // USD everywhere CoinGecko quotes; the USDT pairs differ from it only by tether's peg (a few basis points).
    expect(gainer?.price).toBe(usd);
    expect(inContext).toBe(usd);
    expect(lastCandle.t + 3600).toBe(nowS);
    for (const inUsdt of [book, ta, lastCandle.c]) expect(Math.abs(inUsdt / usd - 1)).toBeLessThan(0.002);
    expect(Math.abs(ta / book - 1)).toBeLessThan(1e-6);
    expect(lastCandle.c).toBe(ta);
  });

  it('computes the weather from the coordinates: distant places differ, the same place agrees with itself', async () => {
    const places = ['40.71,-74.01', '51.51,-0.13', '-33.87,151.21', '64.15,-21.94'];
    const rows = await Promise.all(places.map(async (q) => (await preview('weather', q)).preview));
    expect(new Set(rows.map((r) => r.temp_c)).size).toBe(places.length);
    for (const [i, q] of places.entries()) {
      const [lat, lon] = q.split(',').map(Number) as [number, number];
      expect(Math.abs(rows[i].lat - lat)).toBeLessThan(0.1);
      expect(Math.abs(rows[i].lon - lon)).toBeLessThan(0.1);
    }
    expect(rows.map((r) => r.temp_c).every((c) => c > -40 && c < 45)).toBe(true);
    expect((await preview('weather', '40.72,-74.02')).preview.temp_c).toBe(rows[0].temp_c);
  });

  it('moves with the clock: a minute later bitcoin has another price', async () => {
    const before = (await preview('crypto-price', 'bitcoin')).preview.usd;
    t.clock.advance(60_000);
    const after = (await get('/api/data/preview', { type: 'crypto-price', q: 'bitcoin', max_age: '0' })).body;
    t.clock.set(NOW);
    expect(after.preview.usd).not.toBe(before);
    expect(after.as_of).toBe(nowS + 60);
  });
});

describe('backtests over the demo world', () => {
  const cases = (['crypto-price', 'stock-quote', 'forex'] as BacktestType[]).flatMap((type) =>
    intervalsOf(type).map((interval) => [type, type === 'forex' ? 'EUR:USD' : type === 'stock-quote' ? 'AAPL' : 'ETH', interval] as const),
  );
  it.each(cases)('%s %s at %s has candles up to now', async (type, q, interval) => {
    const step = INTERVAL_SECONDS[interval];
    const { status, body } = await get('/api/v1/backtest', {
      type,
      q,
      interval,
      from: String(nowS - 200 * step),
      to: String(nowS),
      free: '1',
    });
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.source_mode).toBe('demo');
    expect(body.count).toBeGreaterThan(interval === '1d' ? 50 : 0);
    // Yahoo's hourly bars open at :30 in the session, so at 15:00 UTC the last closed one (and 4h bucket built from them) is yesterday's.
    const slack = interval === '1d' || (type === 'stock-quote' && (interval === '1h' || interval === '4h')) ? DAY : 0;
    expect(body.data.at(-1).t).toBeGreaterThan(nowS - 3 * step - slack);
    for (const c of body.data) expect(c.l <= Math.min(c.o, c.c) && c.h >= Math.max(c.o, c.c)).toBe(true);
  });
});
