import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromGoplus, fromSource } from '../../src/sources/token-risk.js';
import { goplusRisks } from '../../src/sources/lib/goplus.js';
import { riskScore } from '../../src/sources/lib/risk-score.js';
import type { Source } from '../../src/sources/lib/contract-source.js';
import { CLEAN_GOPLUS_FLAGS } from '../helpers/goplus.js';

const target = { chain: 'ethereum' as const, chainId: 1, address: '0x1111111111111111111111111111111111111111' };
const clean = CLEAN_GOPLUS_FLAGS;
const source = (over: Partial<Source>): Source => ({
  SourceCode: 'contract T {}',
  ABI: '[]',
  ContractName: 'T',
  CompilerVersion: 'v0.8.24+commit.e11b9ed9',
  LicenseType: 'MIT',
  Proxy: '0',
  Implementation: '',
  ...over,
});

describe('GoPlus flags', () => {
  it('reads "1" as a risk and a missing key as unknown, never as safe', () => {
    const { is_mintable: _m, hidden_owner: _h, ...partial } = clean;
    expect(goplusRisks({ ...partial, is_honeypot: '1' })).toEqual({ risks: ['honeypot'], unknown_checks: ['hidden_owner', 'mintable'] });
  });

  it('flags closed source and taxes above 10% (fractions as text)', () => {
    expect(goplusRisks({ ...clean, is_open_source: '0', sell_tax: '0.25' }).risks).toEqual(['unverified_source', 'high_tax']);
    expect(goplusRisks({ ...clean, buy_tax: '0.1' }).risks).toEqual([]);
  });

  it('honeypot alone is the maximum score', () => {
    expect(fromGoplus(target, { ...clean, is_honeypot: '1' })).toMatchObject({ risk_score: 100, risk_level: 'high', is_honeypot: true });
  });
});

describe('token-risk rows', () => {
  it('turns fractions into percentages and sums only the top 10 holders and locked LP', () => {
    const holders = Array.from({ length: 12 }, () => ({ percent: '0.05', is_locked: 0 }));
    const lp_holders = [
      { percent: '0.6', is_locked: 1 },
      { percent: '0.3', is_locked: 0 },
      { percent: '0.05', is_locked: 1 },
    ];
    const row = fromGoplus(target, {
      ...clean,
      buy_tax: '0.03',
      sell_tax: '0.055',
      holders,
      lp_holders,
      dex: [
        { name: 'UniswapV2', liquidity: '1000.4' },
        { name: 'UniswapV3', liquidity: '2000.3' },
      ],
    });
    expect(row).toMatchObject({
      buy_tax_pct: 3,
      sell_tax_pct: 5.5,
      top10_holder_pct: 50,
      lp_locked_pct: 65,
      dex_liquidity_usd: 3001,
      risks: [],
      risk_score: 0,
      risk_level: 'low',
    });
  });

  it('leaves holder and liquidity figures null when GoPlus sends none', () => {
    expect(fromGoplus(target, clean)).toMatchObject({
      holder_count: null,
      top10_holder_pct: null,
      lp_locked_pct: null,
      dex_liquidity_usd: null,
      token_name: null,
    });
  });

  it('from verified source only: settles open-source and proxy, leaves what a name scan cannot prove unknown', () => {
    const abi = JSON.stringify([{ type: 'function', name: 'mint', stateMutability: 'nonpayable' }]);
    const row = fromSource(target, source({ ABI: abi, Proxy: '1' }));
    expect(row).toMatchObject({
      is_open_source: true,
      is_proxy: true,
      is_mintable: true,
      is_honeypot: null,
      risks: ['proxy', 'mintable'],
      risk_score: 25,
    });
    expect(row.unknown_checks).toContain('honeypot');
    expect(row.unknown_checks).not.toContain('mintable');
    expect(fromSource(target, source({ SourceCode: '', ABI: 'Contract source code not verified' }))).toMatchObject({
      is_open_source: false,
      is_mintable: null,
      risks: ['unverified_source'],
      risk_score: 30,
      risk_level: 'unknown',
    });
  });
});

describe('risk score', () => {
  it('adds weights once per risk, caps at 100 and ignores unknown names', () => {
    expect(riskScore(['proxy', 'proxy', 'mintable'])).toEqual({ risk_score: 25, risk_score_max: 25, risk_level: 'medium' });
    expect(riskScore(['honeypot', 'selfdestruct'])).toEqual({ risk_score: 100, risk_score_max: 100, risk_level: 'high' });
    expect(riskScore(['something-new'])).toEqual({ risk_score: 0, risk_score_max: 0, risk_level: 'low' });
  });

  it('counts unknown checks only towards the maximum; the level is unknown when they could change it', () => {
    expect(riskScore([], ['honeypot'])).toEqual({ risk_score: 0, risk_score_max: 100, risk_level: 'unknown' });
    expect(riskScore([], ['old_compiler'])).toEqual({ risk_score: 0, risk_score_max: 10, risk_level: 'low' });
    expect(riskScore(['honeypot'], ['proxy'])).toEqual({ risk_score: 100, risk_score_max: 100, risk_level: 'high' });
  });

  it('unknown checks never lower the score (property)', () => {
    const names = fc.constantFrom('honeypot', 'proxy', 'mintable', 'old_compiler', 'blacklist', 'hidden_owner', 'unknown-name');
    fc.assert(
      fc.property(fc.array(names), fc.array(names), (risks, unknown) => {
        const withUnknown = riskScore(risks, unknown);
        expect(withUnknown.risk_score).toBe(riskScore(risks).risk_score);
        expect(withUnknown.risk_score_max).toBeGreaterThanOrEqual(withUnknown.risk_score);
        if (withUnknown.risk_level === 'low') expect(riskScore([...risks, ...unknown]).risk_level).toBe('low');
      }),
    );
  });
});
