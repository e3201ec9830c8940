import { defineSource, type Row } from './define.js';
import {
  CONTRACT_CHECKS,
  contractSource,
  declaredLicence,
  scored,
  sourceChecks,
  SOURCE_TEXT_CHECKS,
  type Source,
} from './lib/contract-source.js';
import { evmKey, evmTargetQ, type EvmTarget } from './lib/evm-chains.js';
import { flag, goplusRisks, goplusToken, type TokenSecurity } from './lib/goplus.js';
import { sourcifyRisk } from './lib/sourcify.js';

export function fromEtherscan(target: EvmTarget, s: Source): Row {
  const { verified, risky_functions, risks } = sourceChecks(s);
  const unknownChecks = verified ? [] : [...SOURCE_TEXT_CHECKS];
  return {
    chain: target.chain,
    address: target.address,
    contract_name: s.ContractName || null,
    verified,
    is_proxy: s.Proxy === '1',
    implementation: s.Implementation || null,
    compiler_version: s.CompilerVersion || null,
    license: declaredLicence(s.LicenseType),
    owner: null,
    risky_functions,
    ...scored(risks, unknownChecks),
  };
}

/** GoPlus flags that settle one of our checks (a "0" settles it as passed). */
const GOPLUS_FLAG: Partial<Record<(typeof CONTRACT_CHECKS)[number], keyof TokenSecurity>> = {
  unverified_source: 'is_open_source',
  proxy: 'is_proxy',
  mintable: 'is_mintable',
  pausable: 'transfer_pausable',
  blacklist: 'is_blacklisted',
  modifiable_tax: 'slippage_modifiable',
  selfdestruct: 'selfdestruct',
};
const goplusAnswers = (token: TokenSecurity, check: (typeof CONTRACT_CHECKS)[number]) => {
  const key = GOPLUS_FLAG[check];
  return key !== undefined && flag(token[key] as string | undefined) !== null;
};

/** GoPlus answers most checks by flag; it says nothing about upgradeability by name or the compiler version. */
export function fromGoplus(target: EvmTarget, token: TokenSecurity): Row {
  const ours = new Set<string>(CONTRACT_CHECKS);
  const risks = goplusRisks(token).risks.filter((r) => ours.has(r));
  return {
    chain: target.chain,
    address: target.address,
    contract_name: token.token_name ?? null,
    verified: flag(token.is_open_source),
    is_proxy: flag(token.is_proxy),
    implementation: null,
    compiler_version: null,
    license: null,
    owner: token.owner_address || null,
    risky_functions: null,
    ...scored(
      risks,
      CONTRACT_CHECKS.filter((c) => !goplusAnswers(token, c)),
    ),
  };
}

/**
 * Rows (one): chain, address, contract_name, verified (null when unknown), is_proxy, implementation, compiler_version,
 * license (null when none is declared), owner (what owner() returns, GoPlus's owner_address; null when none or not read),
 * risky_functions (state-changing functions named like mint/pause/blacklist/setFee/upgradeTo; null when unknown),
 * risk_score (0-100, our heuristic, counting only risks found), risk_score_max (unknown checks counted as risks),
 * risk_level (low/medium/high, or unknown when the unknown checks could change it), risks [names], unknown_checks [names].
 * Etherscan (key) first; GoPlus knows tokens only (source-level fields null); the keyless Sourcify + public RPC path
 * covers any contract: verified source from Sourcify, proxy slots and owner() from an Ethereum node.
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
    gopluslabs: async (target, { http, deadline }) => [fromGoplus(target, await goplusToken(http, target, deadline))],
    sourcify: async (target, { http, upstream, deadline }) => [await sourcifyRisk(http, upstream, target, deadline)],
  },
});
