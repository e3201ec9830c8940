import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EVM_CHAINS, evmKey, evmTargetQ } from '../../src/sources/lib/evm-chains.js';
import { etherscanList } from '../../src/sources/lib/etherscan.js';
import { ApiError } from '../../src/core/errors.js';

const parse = evmTargetQ('<chain>:<address>', 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7');
const hex40 = fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: 40, maxLength: 40 }).map((c) => c.join(''));
const names = Object.entries(EVM_CHAINS).flatMap(([name, c]) => [name, ...c.aliases].map((n) => [n, name] as const));

describe('evm chain q', () => {
  it('maps every documented chain and alias, in any case, to its chain id and a lower-cased address', () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), hex40, fc.boolean(), ([spelled, chain], h, upper) => {
        const target = parse(`${upper ? spelled.toUpperCase() : spelled}:0x${h}`);
        expect(target).toEqual({ chain, chainId: EVM_CHAINS[chain as keyof typeof EVM_CHAINS].id, address: `0x${h.toLowerCase()}` });
      }),
    );
  });

  it('gives aliases and checksummed spellings one key', () => {
    expect(evmKey(parse('eth:0xDAC17F958D2ee523a2206206994597C13D831ec7'))).toBe('ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7');
    expect(parse('matic:0x0000000000000000000000000000000000001010').chainId).toBe(137);
    expect(parse('bnb:0x0000000000000000000000000000000000001010').chainId).toBe(56);
  });

  it('refuses malformed q with a 400 that states the shape and lists the chains', () => {
    const addr = '0xdac17f958d2ee523a2206206994597c13d831ec7';
    for (const q of [
      '',
      addr,
      `solana:${addr}`,
      'ethereum:0x12',
      `ethereum:${addr}:1`,
      `ethereum:${addr.slice(2)}`,
      `ethereum:0x${'g'.repeat(40)}`,
    ]) {
      expect(() => parse(q), q).toThrow(ApiError);
    }
    try {
      parse(`tron:${addr}`);
    } catch (e) {
      expect((e as ApiError).details).toMatchObject({
        field: 'q',
        expected: expect.stringContaining('ethereum, bsc, polygon'),
        example: expect.any(String),
      });
    }
  });

  it('restricts to the chains a type supports', () => {
    const ethOnly = evmTargetQ('<chain>:<contract_address>', 'ethereum:0x66a9893cc07d91d95644aedd05d03f95e1dba8af', ['ethereum']);
    expect(ethOnly('eth:0x66a9893cc07d91d95644aedd05d03f95e1dba8af').chainId).toBe(1);
    expect(() => ethOnly('base:0x66a9893cc07d91d95644aedd05d03f95e1dba8af')).toThrow(/not a supported chain/);
  });
});

describe('etherscan envelope', () => {
  it('treats "No transactions found" as an empty history', () => {
    expect(etherscanList({ status: '0', message: 'No transactions found', result: [] })).toEqual([]);
  });

  it('names the throttle and other status-0 answers sent with HTTP 200', () => {
    expect(() => etherscanList({ status: '0', message: 'NOTOK', result: 'Max rate limit reached' })).toThrow(
      expect.objectContaining({ reason: 'upstream_rate_limited' }),
    );
    expect(() => etherscanList({ status: '0', message: 'NOTOK', result: 'Invalid API Key' })).toThrow(
      expect.objectContaining({ reason: 'upstream_error' }),
    );
    expect(() => etherscanList({ status: '1', message: 'OK', result: 'unexpected' })).toThrow(
      expect.objectContaining({ reason: 'upstream_error' }),
    );
  });
});
