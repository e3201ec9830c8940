import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Rows say what they are, whichever upstream answered: the quote currency, the scope of a value, a proxy for a
 * measure. Each type is run against its recorded primary and, with the primary failing, its fallback.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
});

const rowsOf = async (type: string, q: string, failing: string[] = []) => {
  for (const host of failing) t.sim.fault(host, { kind: 'status', status: 503 });
  const result = await t.deps.sources.run(type, q, { maxAgeS: 0 });
  if (!result.ok) throw new Error(`${type}: ${result.error} (${result.message})`);
  return result.rows;
};

describe('ta-indicators', () => {
  it('says the candles were in USDT on Binance and in USD on the Coinbase fallback (regression: neither said)', async () => {
    expect((await rowsOf('ta-indicators', 'BTC:1h'))[0]).toMatchObject({ quote: 'USDT', source: 'binance' });
    expect((await rowsOf('ta-indicators', 'BTC:1h', ['binance']))[0]).toMatchObject({ quote: 'USD', source: 'coinbase-exchange' });
  });
});

describe('crypto-trending', () => {
  it('marks GeckoTerminal’s pools as pools in the same row shape as CoinGecko’s coins (regression: pools posed as coins)', async () => {
    const coins = await rowsOf('crypto-trending', '');
    const pools = await rowsOf('crypto-trending', '', ['coingecko']);
    expect(coins[0]).toMatchObject({ kind: 'coin', trending_by: 'coingecko_searches_24h', pool_address: null });
    expect(pools[0]).toMatchObject({ kind: 'pool', trending_by: 'geckoterminal_engagement_and_activity', coin_id: null });
    expect(Object.keys(pools[0]!).sort()).toEqual(Object.keys(coins[0]!).sort());
  });

  it('describes what is served: 24-hour searches, not the last hour', async () => {
    const { data_types } = (await t.app.inject('/api/v1/catalog')).json() as { data_types: { type: string; desc: string }[] };
    const desc = data_types.find((d) => d.type === 'crypto-trending')!.desc;
    expect(desc).toMatch(/most searched on CoinGecko over the last 24 hours/);
    expect(desc).not.toMatch(/last hour/);
  });
});

describe('shipping-bdi', () => {
  it('says the primary series is the Baltic Dry Index and the ETF fallback a fund price, not freight rates', async () => {
    const [index] = await rowsOf('shipping-bdi', 'latest');
    const [fund] = await rowsOf('shipping-bdi', 'latest', ['seecapitalmarkets']);
    expect(index).toMatchObject({ index: 'BDI', is_bdi: true, kind: 'freight_index', unit: 'index_points' });
    expect(fund).toMatchObject({ index: 'BDRY', is_bdi: false, kind: 'fund_price', unit: 'usd_per_share' });
    expect(fund!.name).toMatch(/share price.*not a freight rate/);
  });
});
