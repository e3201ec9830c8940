import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import { noData } from '../../upstream/errors.js';
import { Envelope, etherscanList, type EnvelopeOf } from './etherscan.js';
import type { EvmTarget } from './evm-chains.js';
import { riskScore } from './risk-score.js';

/** What contract-risk checks: the verified source, proxying, owner powers found by function name, selfdestruct, the compiler. */
export const CONTRACT_CHECKS = [
  'unverified_source',
  'proxy',
  'mintable',
  'pausable',
  'blacklist',
  'modifiable_tax',
  'upgradeable',
  'selfdestruct',
  'old_compiler',
] as const;
/** Checks that need the verified source text: unknown when it is not published. */
export const SOURCE_TEXT_CHECKS: string[] = ['mintable', 'pausable', 'blacklist', 'modifiable_tax', 'upgradeable', 'selfdestruct'];

/** The score of the risks found, with the unknown checks as its upper bound, and both lists. */
export const scored = (risks: string[], unknownChecks: string[]) => ({
  ...riskScore(risks, unknownChecks),
  risks,
  unknown_checks: unknownChecks,
});

/** Etherscan V2 `getsourcecode`; an unverified contract has `SourceCode: ""` and an ABI sentence instead of JSON. */
const Source = Type.Object({
  SourceCode: Type.String(),
  ABI: Type.String(),
  ContractName: Type.String(),
  CompilerVersion: Type.String(),
  LicenseType: Type.String(),
  Proxy: Type.String(),
  Implementation: Type.String(),
});
export type Source = Type.Static<typeof Source>;
const SourceResponse = Envelope(Source);

/** State-changing functions whose names give an owner power over holders (our list). */
const RISKY_FUNCTIONS: [RegExp, string][] = [
  [/^mint/i, 'mintable'],
  [/^pause$/i, 'pausable'],
  [/blacklist|blocklist|denylist/i, 'blacklist'],
  [/^(set|update).*(fee|tax)/i, 'modifiable_tax'],
  [/^upgradeTo/i, 'upgradeable'],
];
/**
 * An old compiler, from Etherscan's `CompilerVersion` (`v0.6.6+commit.6c089d02` for Solidity, `vyper:0.3.7` for Vyper).
 * Solidity before 0.8 has no built-in overflow checks. Vyper before 0.3.10 predates the fixes for the 2023 series of
 * compiler security advisories, among them the named re-entrancy locks that 0.2.15, 0.2.16 and 0.3.0 allocated wrongly
 * (GHSA-5824-cm3x-3c38, exploited against Curve pools in July 2023).
 */
const OLD_SOLC = /^v?0\.[0-7]\./;
const OLD_VYPER = /^vyper:0\.([0-2]\.|3\.[0-9](?!\d))/;
export const isOldCompiler = (version: string): boolean => OLD_SOLC.test(version) || OLD_VYPER.test(version);

/** Etherscan writes "Unknown" where no licence was declared (older and unverified sources): no licence, not one named so. */
export const declaredLicence = (licenseType: string): string | null =>
  licenseType === '' || licenseType === 'Unknown' ? null : licenseType;

interface AbiEntry {
  type?: string;
  name?: string;
  stateMutability?: string;
}

/** Names of the ABI's state-changing functions; null when the ABI is not JSON (unverified source). */
export function writableFunctions(abi: string): string[] | null {
  try {
    const entries = JSON.parse(abi) as AbiEntry[];
    const writes = (e: AbiEntry) => e.type === 'function' && e.name && e.stateMutability !== 'view' && e.stateMutability !== 'pure';
    return entries.filter(writes).map((e) => e.name!);
  } catch {
    return null;
  }
}

export interface SourceChecks {
  verified: boolean;
  /** Risky state-changing functions found; null when the source is not verified. */
  risky_functions: string[] | null;
  risks: string[];
}

export function sourceChecks(s: Source): SourceChecks {
  const verified = s.SourceCode !== '';
  const functions = verified ? writableFunctions(s.ABI) : null;
  const risky = (functions ?? []).flatMap((name) => RISKY_FUNCTIONS.filter(([re]) => re.test(name)).map(([, risk]) => ({ name, risk })));
  const risks = [
    ...(verified ? [] : ['unverified_source']),
    ...(s.Proxy === '1' ? ['proxy'] : []),
    ...new Set(risky.map((r) => r.risk)),
    ...(/\bselfdestruct\s*\(/.test(s.SourceCode) ? ['selfdestruct'] : []),
    ...(isOldCompiler(s.CompilerVersion) ? ['old_compiler'] : []),
  ];
  return { verified, risky_functions: functions && [...new Set(risky.map((r) => r.name))], risks };
}

/** Etherscan's verified-source record of a contract (the key is required on every V2 call). */
export async function contractSource(http: HostHttp, { chainId, address }: EvmTarget, deadline: number): Promise<Source> {
  const query = { chainid: chainId, module: 'contract', action: 'getsourcecode', address };
  const [source] = etherscanList(await http.json<EnvelopeOf<Source>>('/v2/api', SourceResponse, { deadline, query }));
  if (!source) throw noData(`Etherscan has no contract at ${address}`);
  return source;
}
