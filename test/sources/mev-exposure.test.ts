import { describe, expect, it } from 'vitest';
import mevExposure, { toRow, windowBefore } from '../../src/sources/mev-exposure.js';

const ROUTER = '0x66a9893cc07d91d95644aedd05d03f95e1dba8af';
const target = { chain: 'ethereum' as const, chainId: 1, address: ROUTER };
const tx = (
  mev_type: string,
  address_to: string | null = ROUTER,
  user_loss_usd: number | null = null,
  user_swap_volume_usd: number | null = 100,
) => ({
  block_number: 26310350,
  mev_type,
  address_to,
  user_loss_usd,
  user_swap_volume_usd,
});

describe('mev-exposure', () => {
  it('scans the 100 blocks that end 50 blocks before the head', () => {
    expect(windowBefore(26310450)).toEqual({ from: 26310301, to: 26310400 });
  });

  it('scores the share of swaps to the contract that were sandwiched, matching addresses in any case', () => {
    const row = toRow(target, windowBefore(26310450), [
      tx('sandwich', ROUTER.toUpperCase().replace('0X', '0x'), -40.5, 5000),
      tx('swap'),
      tx('swap'),
      tx('frontrun', '0xbot'),
      tx('backrun', '0xbot'),
      tx('sandwich', '0xotherrouter', -999, 1),
      tx('arb', ROUTER),
    ]);
    expect(row).toMatchObject({
      sandwich_risk_score: 33,
      swaps_seen: 3,
      sandwiched: 1,
      user_loss_usd: 40.5,
      sandwiched_volume_usd: 5000,
      from_block: 26310301,
      to_block: 26310400,
    });
  });

  it('treats missing loss figures as zero and no swaps as no data', () => {
    expect(toRow(target, windowBefore(100), [tx('sandwich', ROUTER, null, null)])).toMatchObject({
      sandwich_risk_score: 100,
      user_loss_usd: 0,
      sandwiched_volume_usd: 0,
    });
    expect(() => toRow(target, windowBefore(100), [tx('arb'), tx('swap', null)])).toThrow(/no swaps/);
  });

  it('accepts Ethereum only', () => {
    expect(mevExposure.parseQ(`eth:${ROUTER}`)).toMatchObject({ chain: 'ethereum', chainId: 1 });
    expect(() => mevExposure.parseQ(`base:${ROUTER}`)).toThrow(/ethereum/);
  });
});
