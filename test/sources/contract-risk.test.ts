import { describe, expect, it } from 'vitest';
import { CONTRACT_CHECKS, fromEtherscan, fromGoplus } from '../../src/sources/contract-risk.js';
import { writableFunctions, type Source } from '../../src/sources/lib/contract-source.js';

const target = { chain: 'base' as const, chainId: 8453, address: '0x2222222222222222222222222222222222222222' };
const fn = (name: string, stateMutability = 'nonpayable') => ({ type: 'function', name, stateMutability });
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

describe('contract-risk ABI scan', () => {
  it('keeps state-changing functions only', () => {
    const abi = JSON.stringify([
      fn('mint'),
      fn('owner', 'view'),
      fn('calc', 'pure'),
      { type: 'event', name: 'Paused' },
      fn('deposit', 'payable'),
    ]);
    expect(writableFunctions(abi)).toEqual(['mint', 'deposit']);
    expect(writableFunctions('Contract source code not verified')).toBeNull();
  });

  it('names the risky functions once and scores each risk once', () => {
    const abi = JSON.stringify([
      fn('mint'),
      fn('mintTo'),
      fn('pause'),
      fn('unpause'),
      fn('addToBlacklist'),
      fn('setSellFee'),
      fn('upgradeToAndCall', 'payable'),
      fn('transfer'),
    ]);
    const row = fromEtherscan(target, source({ ABI: abi }));
    expect(row).toMatchObject({
      verified: true,
      risky_functions: ['mint', 'mintTo', 'pause', 'addToBlacklist', 'setSellFee', 'upgradeToAndCall'],
      risks: ['mintable', 'pausable', 'blacklist', 'modifiable_tax', 'upgradeable'],
      risk_score: 80,
      risk_level: 'high',
    });
  });

  it('finds selfdestruct in the source and flags pre-0.8 compilers', () => {
    const row = fromEtherscan(
      target,
      source({ SourceCode: 'function kill() { selfdestruct(payable(owner)); }', CompilerVersion: 'v0.7.6+commit.7338295f' }),
    );
    expect(row.risks).toEqual(['selfdestruct', 'old_compiler']);
    expect(fromEtherscan(target, source({ CompilerVersion: 'v0.8.0+commit.c7dfd78e' })).risks).toEqual([]);
  });

  it('an unverified contract has unknown functions and the unverified risk', () => {
    const row = fromEtherscan(
      target,
      source({ SourceCode: '', ABI: 'Contract source code not verified', ContractName: '', CompilerVersion: '', LicenseType: '' }),
    );
    expect(row).toMatchObject({
      verified: false,
      risky_functions: null,
      contract_name: null,
      compiler_version: null,
      license: null,
      risks: ['unverified_source'],
      risk_score: 30,
    });
    expect(row.unknown_checks).toEqual(['mintable', 'pausable', 'blacklist', 'modifiable_tax', 'upgradeable', 'selfdestruct']);
    expect(row).toMatchObject({ risk_score_max: 100, risk_level: 'unknown' });
  });

  it('never reads "low" from checks that did not run: unknown checks are listed and keep the level open', () => {
    const answered = {
      is_open_source: '1',
      is_proxy: '0',
      is_mintable: '0',
      transfer_pausable: '0',
      is_blacklisted: '0',
      slippage_modifiable: '0',
      selfdestruct: '0',
    };
    const row = fromGoplus(target, answered);
    expect(row).toMatchObject({
      risks: [],
      unknown_checks: ['upgradeable', 'old_compiler'],
      risk_score: 0,
      risk_score_max: 25,
      risk_level: 'unknown',
    });
    const silent = fromGoplus(target, {});
    expect(silent).toMatchObject({ risk_score: 0, risk_level: 'unknown', unknown_checks: [...CONTRACT_CHECKS] });
    expect(fromEtherscan(target, source({}))).toMatchObject({ unknown_checks: [], risk_score: 0, risk_level: 'low' });
  });
});
