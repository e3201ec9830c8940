import { defineSource, type Row } from './define.js';
import { contractSource, sourceChecks, type Source } from './lib/contract-source.js';
import { evmKey, evmTargetQ, type EvmTarget } from './lib/evm-chains.js';
import { flag, goplusRisks, goplusToken } from './lib/goplus.js';
import { riskScore } from './lib/risk-score.js';

export function fromEtherscan(target: EvmTarget, s: Source): Row {
  const { verified, risky_functions, risks } = sourceChecks(s);
  return {
    chain: target.chain,
    address: target.address,
    contract_name: s.ContractName || null,
    verified,
    is_proxy: s.Proxy === '1',
    implementation: s.Implementation || null,
    compiler_version: s.CompilerVersion || null,
    license: s.LicenseType || null,
    risky_functions,
    ...riskScore(risks),
    risks,
  };
}

/**
 * Rows (one): chain, address, contract_name, verified, is_proxy, implementation, compiler_version, license,
 * risky_functions (state-changing functions named like mint/pause/blacklist/setFee/upgradeTo; null when unknown),
 * risk_score (0-100, our heuristic), risk_level (low/medium/high), risks [names]. From the GoPlus fallback the
 * source-level fields (implementation, compiler_version, license, risky_functions) are null.
 */
export default defineSource<EvmTarget>({
  type: 'contract-risk',
  categories: ['security', 'crypto'],
  qShape: '<chain>:<contract_address>',
  example: 'ethereum:0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
  desc: '`<chain>:<contract_address>`; contract risk score',
  parseQ: evmTargetQ('<chain>:<contract_address>', 'ethereum:0x7a250d5630b4cf539739df2c5dacb4c659f2488d'),
  keyOf: evmKey,
  ttlSeconds: 3600,
  deadlineMs: 6000,
  entityQ: (e) => (e.contracts?.ethereum ? `ethereum:${e.contracts.ethereum}` : undefined),
  upstreams: {
    etherscan: async (target, { http, deadline }) => [fromEtherscan(target, await contractSource(http, target, deadline))],
    gopluslabs: async (target, { http, deadline }) => {
      const token = await goplusToken(http, target, deadline);
      const { risks } = goplusRisks(token);
      const base = { chain: target.chain, address: target.address, contract_name: token.token_name ?? null };
      const unknownSource = { implementation: null, compiler_version: null, license: null, risky_functions: null };
      return [{ ...base, verified: flag(token.is_open_source), is_proxy: flag(token.is_proxy), ...unknownSource, ...riskScore(risks), risks }];
    },
  },
});
