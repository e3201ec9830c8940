import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** crypto-price's per-coin exchange sources through HTTP: Coinbase asked for every coin, Kraken's batch with an unknown pair. */
let t: TestApp;
let asked = 0;
beforeAll(async () => {
  t = await startTestApp({ deadlineCapMs: 3000 });
});
afterAll(() => t.close());
beforeEach(async () => {
  t.sim.clearFaults();
  t.sim.clearOverrides();
  t.sim.resetHits();
  t.deps.upstream.resetBreakers();
});

interface Verdict {
  source: string;
  value?: number;
  used: boolean;
  reason?: string;
}

const preview = async (q: string) => {
  const res = await t.app.inject({
    url: '/api/data/preview',
    query: { type: 'crypto-price', q, max_age_s: '0' },
    remoteAddress: `10.9.0.${++asked}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().preview as { coin: string; corroboration: { sources: Verdict[] } };
};
const krakenOf = (row: { corroboration: { sources: Verdict[] } }) => row.corroboration.sources.find((s) => s.source === 'kraken')!;

const KRAKEN_BTC = {
  error: [],
  result: {
    XXBTZUSD: { a: ['67190.1', '1', '1.000'], b: ['67190.1', '1', '1.000'], c: ['67190.10000', '0.0015'], v: ['1', '1'], o: '64830.0' },
  },
};
const UNKNOWN_PAIR = { error: ['EQuery:Unknown asset pair'] };

describe('Kraken: one unknown pair in the batch', () => {
  beforeEach(() => {
    t.sim.serve({ host: 'kraken', path: '/0/public/Ticker', query: { pair: 'XBTUSD,SOLUSD' }, body: UNKNOWN_PAIR });
    t.sim.serve({ host: 'kraken', path: '/0/public/Ticker', query: { pair: 'SOLUSD,XBTUSD' }, body: UNKNOWN_PAIR });
    t.sim.serve({ host: 'kraken', path: '/0/public/Ticker', query: { pair: 'XBTUSD' }, body: KRAKEN_BTC });
    t.sim.serve({ host: 'kraken', path: '/0/public/Ticker', query: { pair: 'SOLUSD' }, body: UNKNOWN_PAIR });
  });

  it('keeps Kraken’s price of the coins it lists (regression: the whole batch was not_listed)', async () => {
    expect(krakenOf(await preview('bitcoin,solana'))).toMatchObject({ value: 67190.1 });
  });

  it('lists only the unknown coin as not_listed', async () => {
    // Coinbase prices Solana, so it has a row whose Kraken entry can be read.
    const sol = {
      ask: '150.11',
      bid: '150.1',
      volume: '1000',
      trade_id: 1,
      price: '150.1',
      size: '1',
      time: '2024-03-25T08:44:58.123456Z',
    };
    t.sim.serve({ host: 'coinbase-exchange', path: '/products/SOL-USD/ticker', body: sol });
    const result = await t.deps.sources.run('crypto-price', 'bitcoin,solana', { maxAgeS: 0 });
    const solana = (result.ok ? result.rows : []).find((r) => r.coin === 'solana');
    expect(krakenOf(solana as never)).toEqual({ source: 'kraken', used: false, reason: 'not_listed' });
  });
});

describe('Coinbase: one product per coin', () => {
  const COINS = 'bitcoin,ethereum,solana,cardano,dogecoin,ripple,litecoin';
  const PRODUCTS = ['BTC', 'ETH', 'SOL', 'ADA', 'DOGE', 'XRP', 'LTC'].map((b) => `/products/${b}-USD/ticker`);

  it('asks for every coin of the query (regression: only the first five were asked)', async () => {
    await preview(COINS);
    expect(PRODUCTS.map((p) => t.sim.hits('coinbase-exchange', p))).toEqual(PRODUCTS.map(() => 1));
  });

  it('shares a product’s request among concurrent queries asking for it', async () => {
    t.sim.fault('coinbase-exchange', { kind: 'delay', ms: 300 });
    await Promise.all([preview('bitcoin,ethereum'), preview('bitcoin,solana'), preview('bitcoin')]);
    expect(t.sim.hits('coinbase-exchange', PRODUCTS[0])).toBe(1);
  });
});
