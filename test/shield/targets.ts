import type { Simulator } from '../../src/demo/simulator.js';
import { CLEAN_GOPLUS_FLAGS } from '../helpers/goplus.js';

/**
 * Targets served by the upstream simulator: GoPlus token_security and Etherscan getsourcecode answers
 * in the documented shapes (see src/sources/fixtures/token-risk.json and contract-risk.json), one
 * address per case.
 */
export const HONEYPOT = '0x1111111111111111111111111111111111111111';
export const CLEAN = '0x2222222222222222222222222222222222222222';
export const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';

export function serveGoplus(sim: Simulator, address: string, token: Record<string, unknown>): void {
  sim.serve({
    host: 'gopluslabs',
    path: '/api/v1/token_security/1',
    query: { contract_addresses: address },
    body: { code: 1, message: 'OK', result: { [address]: token } },
  });
}

export function serveEtherscan(sim: Simulator, address: string, source: { verified: boolean; abi?: string[] }): void {
  const abi = source.verified
    ? JSON.stringify((source.abi ?? ['transfer']).map((name) => ({ type: 'function', name, stateMutability: 'nonpayable' })))
    : 'Contract source code not verified';
  sim.serve({
    host: 'etherscan',
    path: '/v2/api',
    query: { module: 'contract', action: 'getsourcecode', address },
    body: {
      status: '1',
      message: 'OK',
      result: [
        {
          SourceCode: source.verified ? 'pragma solidity ^0.8.20;' : '',
          ABI: abi,
          ContractName: source.verified ? 'Token' : '',
          CompilerVersion: source.verified ? 'v0.8.20+commit.a1b79de6' : '',
          LicenseType: 'MIT',
          Proxy: '0',
          Implementation: '',
        },
      ],
    },
  });
}

/** A token named like Tether whose sell simulation fails: the honeypot case. */
export function serveHoneypot(sim: Simulator): void {
  serveGoplus(sim, HONEYPOT, {
    ...CLEAN_GOPLUS_FLAGS,
    token_name: 'Tether USD',
    token_symbol: 'USDT',
    is_honeypot: '1',
    cannot_sell_all: '1',
    sell_tax: '0.99',
  });
  serveEtherscan(sim, HONEYPOT, { verified: false });
}

/** A token with every flag answered and none raised. */
export function serveClean(sim: Simulator): void {
  serveGoplus(sim, CLEAN, { ...CLEAN_GOPLUS_FLAGS, token_name: 'Plain Token', token_symbol: 'PLN' });
  serveEtherscan(sim, CLEAN, { verified: true });
}
