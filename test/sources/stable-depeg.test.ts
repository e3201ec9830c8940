import { describe, expect, it } from 'vitest';
import { fromCoinGecko, fromDefiLlama, toRows, type Stable } from '../../src/sources/stable-depeg.js';

const stable = (symbol: string, supply_usd: number, price: number | null = 1): Stable => ({
  symbol,
  name: symbol,
  price,
  supply_usd,
  mechanism: null,
});
const coins = [
  stable('USDT', 100, 1.0003),
  stable('USDC', 50, 0.9999),
  stable('USDE', 10),
  stable('DAI', 5),
  stable('USDS', 4),
  stable('PYUSD', 1, null),
];

describe('stable-depeg', () => {
  it('answers the top 5 with the asked coin first when it is among them', () => {
    const rows = toRows('DAI', coins);
    expect(rows.map((r) => r.symbol)).toEqual(['DAI', 'USDT', 'USDC', 'USDE', 'USDS']);
    expect(rows[1]).toMatchObject({ rank: 1, deviation_bps: 3, asked: false });
  });

  it('adds a coin outside the top 5 in front of them, with a null deviation when unpriced', () => {
    const rows = toRows('PYUSD', coins);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ symbol: 'PYUSD', rank: 6, price_usd: null, deviation_bps: null, asked: true });
  });

  it('excludes non-dollar pegs and says no_data for an unknown coin', () => {
    const eur = { name: 'EURC', symbol: 'EURC', pegType: 'peggedEUR', circulating: { peggedEUR: 1e9 }, price: 1.16 };
    expect(fromDefiLlama({ peggedAssets: [eur] })).toEqual([]);
    expect(() => toRows('EURC', coins)).toThrow(/no US-dollar stablecoin/);
  });
});

describe('stable-depeg fallback', () => {
  it('ranks the top 5 from CoinGecko’s whole USD stablecoin category (regression: 11 hand-listed coins left USDS out)', () => {
    const market = (id: string, symbol: string, market_cap: number) => ({
      id,
      symbol,
      name: id,
      current_price: 1,
      market_cap,
      last_updated: '2026-11-22T11:59:01.204Z',
    });
    const stables = fromCoinGecko([
      market('tether', 'usdt', 186e9),
      market('usd-coin', 'usdc', 76e9),
      market('ethena-usde', 'usde', 14e9),
      market('usds', 'usds', 9e9),
      market('dai', 'dai', 4e9),
      market('paypal-usd', 'pyusd', 2e9),
    ]);
    expect(toRows('PYUSD', stables).map((r) => [r.symbol, r.rank])).toEqual([
      ['PYUSD', 6],
      ['USDT', 1],
      ['USDC', 2],
      ['USDE', 3],
      ['USDS', 4],
      ['DAI', 5],
    ]);
    expect(stables[0]).toMatchObject({ as_of: 1795348741 });
  });
});
