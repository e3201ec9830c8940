import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromEtherscan, fromGoplus } from '../../src/sources/contract-risk.js';
import { CONTRACT_CHECKS, writableFunctions, type Source } from '../../src/sources/lib/contract-source.js';
import { fromSourcify } from '../../src/sources/lib/sourcify.js';
import type { Exchange } from '../../src/upstream/fixtures.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

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

  it('flags Vyper before 0.3.10 as Etherscan writes it, and not Vyper 0.3.10 or 0.4', () => {
    const risksOf = (CompilerVersion: string) => fromEtherscan(target, source({ CompilerVersion })).risks;
    for (const old of ['vyper:0.1.0b17', 'vyper:0.2.15', 'vyper:0.3.0', 'vyper:0.3.9']) expect(risksOf(old), old).toEqual(['old_compiler']);
    for (const current of ['vyper:0.3.10', 'vyper:0.4.0', 'vyper:0.4.3']) expect(risksOf(current), current).toEqual([]);
  });

  it('reads Etherscan\'s placeholder licence "Unknown" as no licence declared', () => {
    expect(fromEtherscan(target, source({ LicenseType: 'Unknown' })).license).toBeNull();
    expect(fromEtherscan(target, source({ LicenseType: 'None' })).license).toBe('None');
  });

  it('an unverified contract has unknown functions and the unverified risk', () => {
    const row = fromEtherscan(
      target,
      source({ SourceCode: '', ABI: 'Contract source code not verified', ContractName: '', CompilerVersion: '', LicenseType: 'Unknown' }),
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

describe('contract-risk from Sourcify alone (a chain without a public node here)', () => {
  it('takes the proxy from Sourcify’s own resolution and leaves the owner unknown', () => {
    const contract = {
      match: 'exact_match',
      abi: [fn('upgradeToAndCall', 'payable')],
      compilation: { compilerVersion: '0.8.22+commit.4fc1097e', name: 'ERC1967Proxy', fullyQualifiedName: 'P.sol:ERC1967Proxy' },
      sources: { 'P.sol': { content: '// SPDX-License-Identifier: MIT\npragma solidity 0.8.22;\ncontract ERC1967Proxy {}' } },
      proxyResolution: {
        isProxy: true,
        proxyType: 'EIP1967Proxy',
        implementations: [{ address: '0xABCDEF0000000000000000000000000000000001' }],
      },
    };
    expect(fromSourcify(target, contract, null)).toMatchObject({
      verified: true,
      is_proxy: true,
      implementation: '0xabcdef0000000000000000000000000000000001',
      license: 'MIT',
      owner: null,
      risky_functions: ['upgradeToAndCall'],
      risks: ['proxy', 'upgradeable'],
      unknown_checks: [],
    });
  });
});

describe('contract-risk: the compiler Sourcify names', () => {
  const vyper = (compilerVersion: string) => ({
    match: 'exact_match',
    abi: [],
    compilation: { language: 'Vyper', compilerVersion, name: 'Pool', fullyQualifiedName: 'Pool.vy:Pool' },
    sources: { 'Pool.vy': { content: '# @version 0.3.7\n' } },
  });

  it('judges a Vyper version by the Vyper threshold, not the Solidity one', () => {
    expect(fromSourcify(target, vyper('0.4.0+commit.e9db8d9f'), null).risks).toEqual([]);
    expect(fromSourcify(target, vyper('0.3.7+commit.6020b8bb'), null).risks).toEqual(['old_compiler']);
    expect(fromSourcify(target, vyper('0.3.10+commit.91361694'), null)).toMatchObject({
      risks: [],
      compiler_version: '0.3.10+commit.91361694',
    });
  });
});

describe('contract-risk without an Etherscan key', () => {
  const ROUTER = '0x7a250d5630b4cf539739df2c5dacb4c659f2488d';
  const EOA = '0x28c6c06298d514db089934071355e5743bf21d60';
  const UNVERIFIED = '0x1111111111111111111111111111111111111111';
  const word = (hex = '') => `0x${hex.padStart(64, '0')}`;
  const router = {
    match: 'match',
    creationMatch: 'match',
    runtimeMatch: 'match',
    chainId: '1',
    address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
    abi: [fn('swapExactTokensForTokens'), fn('addLiquidityETH', 'payable'), fn('factory', 'view'), fn('quote', 'pure')],
    compilation: {
      compilerVersion: '0.6.6+commit.6c089d02',
      name: 'UniswapV2Router02',
      fullyQualifiedName: 'UniswapV2Router02.sol:UniswapV2Router02',
    },
    sources: { 'UniswapV2Router02.sol': { content: 'pragma solidity =0.6.6;\n\ncontract UniswapV2Router02 is IUniswapV2Router02 {}' } },
    proxyResolution: { isProxy: false, proxyType: null, implementations: [] },
  };
  /** The node's answer to the batch: code, the two implementation slots, the beacon slot, then owner(). */
  const node = (address: string, code: string, slots: [string, string, string], owner: object): Exchange => ({
    host: 'eth-rpc',
    method: 'POST',
    path: '/',
    body_contains: `"eth_getCode","params":["${address}"`,
    body: [
      { jsonrpc: '2.0', id: 1, result: code },
      ...slots.map((result, i) => ({ jsonrpc: '2.0', id: 2 + i, result })),
      { jsonrpc: '2.0', id: 5, ...owner },
    ],
  });
  const reverted = { error: { code: 3, message: 'execution reverted' } };
  const unknownToken = (address: string): Exchange => ({
    host: 'gopluslabs',
    path: '/api/v1/token_security/1',
    query: { contract_addresses: address },
    body: { code: 1, message: 'OK', result: {} },
  });
  const notOnSourcify = (address: string): Exchange => ({
    host: 'sourcify',
    path: `/v2/contract/1/${address}`,
    status: 404,
    body: { match: null, creationMatch: null, runtimeMatch: null, chainId: '1', address },
  });

  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { UPSTREAM_ETHERSCAN_KEY: '' } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.sim.clearOverrides();
    t.deps.upstream.resetBreakers();
  });
  const run = (address: string) => t.deps.sources.run('contract-risk', `ethereum:${address}`, { maxAgeS: 0 });

  it('answers its own catalog example, a router GoPlus does not know, from Sourcify and a public node (regression: no_data)', async () => {
    t.sim.serve(unknownToken(ROUTER));
    t.sim.serve({ host: 'sourcify', path: `/v2/contract/1/${ROUTER}`, body: router });
    t.sim.serve(node(ROUTER, '0x6080604052600436106101', [word(), word(), word()], reverted));
    const result = await run(ROUTER);
    expect(result).toMatchObject({ ok: true, source: 'sourcify' });
    expect(result.ok && result.rows[0]).toMatchObject({
      contract_name: 'UniswapV2Router02',
      verified: true,
      is_proxy: false,
      implementation: null,
      owner: null,
      risky_functions: [],
      risks: ['old_compiler'],
      risk_level: 'low',
    });
  });

  it('reads a proxy Sourcify has not verified from its storage slot, with the source checks unknown rather than failed', async () => {
    t.sim.serve(unknownToken(UNVERIFIED));
    t.sim.serve(notOnSourcify(UNVERIFIED));
    const implementation = '2222222222222222222222222222222222222222';
    t.sim.serve(
      node(UNVERIFIED, '0x363d3d37', [word(implementation), word(), word()], { result: word('9999999999999999999999999999999999999999') }),
    );
    const result = await run(UNVERIFIED);
    expect(result.ok && result.rows[0]).toMatchObject({
      verified: null,
      is_proxy: true,
      implementation: `0x${implementation}`,
      owner: '0x9999999999999999999999999999999999999999',
      risks: ['proxy'],
      unknown_checks: [
        'unverified_source',
        'mintable',
        'pausable',
        'blacklist',
        'modifiable_tax',
        'upgradeable',
        'selfdestruct',
        'old_compiler',
      ],
      risk_level: 'unknown',
    });
  });

  it('has no data for an address without code (a wallet), rather than a row of unknowns', async () => {
    t.sim.serve(unknownToken(EOA));
    t.sim.serve(notOnSourcify(EOA));
    t.sim.serve(node(EOA, '0x', [word(), word(), word()], { result: '0x' }));
    expect(await run(EOA)).toMatchObject({
      ok: false,
      error: 'no_data',
      attempts: [
        { source: 'etherscan', error: 'upstream_key_missing' },
        { source: 'gopluslabs', error: 'no_data' },
        { source: 'sourcify', error: 'no_data' },
      ],
    });
  });
});
