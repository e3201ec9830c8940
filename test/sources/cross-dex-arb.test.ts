import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainAddress, toRows } from '../../src/sources/cross-dex-arb.js';
import { fromDexScreener, type PoolPrice } from '../../src/upstream/formats/dex-pools.js';

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const pool = (dex: string, price_usd: number, liquidity_usd = 1e6): PoolPrice => ({
  dex,
  pair_address: `0x${dex}`,
  price_usd,
  liquidity_usd,
});

describe('cross-dex-arb q', () => {
  it('accepts any listed chain with a 0x+40-hex address and lower-cases EVM addresses', () => {
    const hex = fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: 40, maxLength: 40 }).map((c) => c.join(''));
    fc.assert(
      fc.property(fc.constantFrom('ethereum', 'BSC', 'base', 'arbitrum'), hex, (chain, h) => {
        expect(chainAddress(`${chain}:0x${h}`)).toEqual({ chain: chain.toLowerCase(), address: `0x${h.toLowerCase()}` });
      }),
    );
  });

  it('keeps Solana mints case-sensitive and refuses malformed addresses', () => {
    const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    expect(chainAddress(`solana:${mint}`).address).toBe(mint);
    for (const q of ['ethereum:0x12', 'solana:0xabc', 'tron:' + WETH, `ethereum:${WETH}:1`, WETH]) expect(() => chainAddress(q)).toThrow();
  });
});

describe('cross-dex-arb spreads', () => {
  it('prices the token from the quote side as priceUsd / priceNative', () => {
    const raw = [
      {
        dexId: 'sushiswap',
        pairAddress: '0xp',
        baseToken: { address: '0xpepe' },
        quoteToken: { address: WETH.toUpperCase() },
        priceNative: '0.000000004',
        priceUsd: '0.000012',
      },
    ];
    expect(fromDexScreener({ chain: 'ethereum', address: WETH }, raw)[0]!.price_usd).toBeCloseTo(3000, 6);
  });

  it('reports the widest spread, flagged false, when none is above 1%', () => {
    const rows = toRows([pool('a', 100), pool('b', 100.5), pool('c', 100.2)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ buy_dex: 'a', sell_dex: 'b', spread_pct: 0.5, above_threshold: false });
  });

  it('ignores thin pools and needs two DEXs', () => {
    expect(() => toRows([pool('a', 100), pool('b', 150, 500)])).toThrow(/fewer than two/);
  });
});
