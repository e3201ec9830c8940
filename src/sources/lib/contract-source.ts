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
/** Solidity before 0.8 has no built-in overflow checks. */
const OLD_SOLC = /^v?0\.[0-7]\./;

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
    ...(OLD_SOLC.test(s.CompilerVersion) ? ['old_compiler'] : []),
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
