import { describe, expect, it } from 'vitest';
import { topTransfers } from '../../src/sources/whale-tracker.js';
import { fromEtherscan, fromTxlist, type Transfer } from '../../src/sources/lib/explorer-transfers.js';
import { fromBlockscout, fromBlockscoutTxs } from '../../src/sources/lib/blockscout.js';

const ME = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
let n = 0;
const transfer = (over: Partial<Transfer>): Transfer => {
  n += 1;
  return {
    id: `t${n}`,
    tx_hash: `0x${n}`,
    transferred_at: 1795340000 + n,
    from: OTHER,
    to: ME,
    token_address: '0xt',
    token_symbol: 'USDC',
    value: '1000000',
    decimals: 6,
    price_usd: 1,
    ...over,
  };
};

describe('whale-tracker ranking', () => {
  it('converts raw integer text exactly, even beyond float precision', () => {
    const [row] = topTransfers(ME, [transfer({ value: '123456789012345678901234', decimals: 18, price_usd: 2 })]);
    // eslint-disable-next-line no-loss-of-precision -- the nearest double to the upstream's 24-digit decimal
    expect(row).toMatchObject({ amount: 123456.789012345678901234, value_usd_now: 246913.58 });
  });

  it('names the value for what it is: today’s price times the amount (regression: value_usd read as the value at transfer time)', () => {
    const [row] = topTransfers(ME, [transfer({ value: '3000000', price_usd: 0.5, transferred_at: 1700000000 })]);
    expect(row).toMatchObject({ amount: 3, price_usd_now: 0.5, value_usd_now: 1.5 });
    expect(row).not.toHaveProperty('value_usd');
  });

  it('keeps the five largest by USD value, newest first on ties, and says which way each moved', () => {
    const rows = topTransfers(ME, [
      transfer({ value: '5000000', from: ME, to: OTHER }),
      transfer({ value: '9000000' }),
      transfer({ value: '1000000' }),
      transfer({ value: '7000000', from: OTHER, to: '0x3333333333333333333333333333333333333333' }),
      transfer({ value: '3000000' }),
      transfer({ value: '3000000' }),
    ]);
    expect(rows.map((r) => r.value_usd_now)).toEqual([9, 7, 5, 3, 3]);
    expect(rows.map((r) => r.direction)).toEqual(['in', null, 'out', 'in', 'in']);
    expect((rows[3]!.transferred_at as number) > (rows[4]!.transferred_at as number)).toBe(true);
  });

  it('drops unpriced (spam) tokens and duplicates, and has no data when nothing is priced', () => {
    const same = transfer({ value: '2000000' });
    expect(topTransfers(ME, [same, { ...same }, transfer({ price_usd: null, value: '9'.repeat(30) })])).toHaveLength(1);
    expect(() => topTransfers(ME, [transfer({ price_usd: null })])).toThrow(/no priced transfers/);
  });
});

describe('whale-tracker native coin', () => {
  const base = { timeStamp: '1795347600', hash: '0xA', from: '0xAA', to: '0xBB', value: '3500000000000000000000', isError: '0' };
  it('keeps successful Etherscan transactions that moved coin, unpriced until priced', () => {
    const txs = [base, { ...base, hash: '0xb', isError: '1' }, { ...base, hash: '0xc', value: '0' }, { ...base, hash: '0xd', to: '' }];
    expect(fromTxlist(txs, 'ETH')).toEqual([
      {
        id: '0xa:native',
        tx_hash: '0xA',
        transferred_at: 1795347600,
        from: '0xaa',
        to: '0xbb',
        token_address: null,
        token_symbol: 'ETH',
        value: base.value,
        decimals: 18,
        price_usd: null,
      },
    ]);
  });

  it('reads Blockscout transactions with their own exchange rate and skips failed ones', () => {
    const tx = {
      hash: '0xh',
      timestamp: '2026-11-22T11:40:00.000000Z',
      from: { hash: '0xAA' },
      to: { hash: '0xBB' },
      value: '50000000000000000',
      exchange_rate: '3119.87',
      status: 'ok',
    };
    const [t] = fromBlockscoutTxs([tx, { ...tx, hash: '0xf', status: 'error' }, { ...tx, hash: '0xn', to: null }], 'ETH');
    expect(t).toMatchObject({
      id: '0xh:native',
      token_address: null,
      token_symbol: 'ETH',
      decimals: 18,
      price_usd: 3119.87,
      transferred_at: 1795347600,
    });
    expect(topTransfers('0xbb', [t!])[0]).toMatchObject({ amount: 0.05, value_usd_now: 155.99, direction: 'in', token_address: null });
  });
});

describe('whale-tracker parsing', () => {
  it('prices Etherscan transfers by lower-cased contract', () => {
    const tx = {
      timeStamp: '1795347600',
      hash: '0xh',
      from: '0xAA',
      to: '0xBB',
      contractAddress: '0xDAC1',
      value: '5',
      tokenSymbol: 'USDT',
      tokenDecimal: '6',
    };
    expect(fromEtherscan([tx], { '0xdac1': { usd: 1.0002 } })[0]).toMatchObject({
      from: '0xaa',
      to: '0xbb',
      token_address: '0xdac1',
      price_usd: 1.0002,
      decimals: 6,
      transferred_at: 1795347600,
    });
    expect(fromEtherscan([tx], {})[0]!.price_usd).toBeNull();
  });

  it('reads Blockscout token.address or address_hash, and skips NFTs and unknown decimals', () => {
    const item = (token: object, total: object = { value: '1000000', decimals: '6' }) => ({
      transaction_hash: '0xh',
      log_index: 3,
      timestamp: '2026-11-22T11:40:00.000000Z',
      from: { hash: '0xAA' },
      to: { hash: '0xBB' },
      total,
      token: { symbol: 'USDC', decimals: '6', exchange_rate: '0.9999', type: 'ERC-20', ...token },
    });
    const [t] = fromBlockscout([item({ address_hash: '0xA0B8' })]);
    expect(t).toMatchObject({ id: '0xh:3', token_address: '0xa0b8', price_usd: 0.9999, transferred_at: 1795347600, from: '0xaa' });
    expect(
      fromBlockscout([item({ address: '0xnft', type: 'ERC-721' }, { token_id: '7' }), item({ address: '0xq', decimals: null })]),
    ).toEqual([]);
    expect(fromBlockscout([{ ...item({ address: '0xa' }), log_index: '243' }])[0]!.id).toBe('0xh:243');
    expect(fromBlockscout([{ ...item({ address: '0xa' }), timestamp: null }])).toEqual([]);
    expect(fromBlockscout([item({ address: '0xc', exchange_rate: null })])[0]!.price_usd).toBeNull();
  });
});
