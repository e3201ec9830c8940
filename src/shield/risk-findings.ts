import type { Row } from '../sources/define.js';
import type { SourceFailure, SourceRunner } from '../sources/runner.js';
import type { Finding, Severity } from './schemas.js';

/**
 * How each risk name of token-risk and contract-risk (sources/lib/goplus.ts, contract-source.ts) reads as
 * a finding. GoPlus's honeypot flags come from its buy/sell simulation, so `honeypot` and
 * `cannot_sell_all` are the sell simulation where the upstream offers it.
 */
export const RISK_FINDINGS: Record<string, { severity: Severity; title: string }> = {
  honeypot: { severity: 'critical', title: 'Honeypot: the upstream’s sell simulation failed' },
  airdrop_scam: { severity: 'critical', title: 'Flagged as an airdrop scam' },
  owner_change_balance: { severity: 'critical', title: 'Owner privilege: the owner can change balances' },
  cannot_sell_all: { severity: 'high', title: 'Sell simulation: holders cannot sell all their tokens' },
  creator_made_honeypots: { severity: 'high', title: 'The creator deployed honeypots before' },
  hidden_owner: { severity: 'high', title: 'Owner privilege: a hidden owner' },
  can_take_back_ownership: { severity: 'high', title: 'Owner privilege: ownership can be taken back after renouncing' },
  selfdestruct: { severity: 'high', title: 'The contract can self-destruct' },
  cannot_buy: { severity: 'medium', title: 'The token cannot be bought' },
  unverified_source: { severity: 'medium', title: 'The source code is not verified' },
  modifiable_tax: { severity: 'medium', title: 'Owner privilege: the trading tax can be changed' },
  per_address_tax: { severity: 'medium', title: 'Owner privilege: a tax per address' },
  high_tax: { severity: 'medium', title: 'Buy or sell tax above 10%' },
  mintable: { severity: 'medium', title: 'Owner privilege: new tokens can be minted' },
  pausable: { severity: 'medium', title: 'Owner privilege: transfers can be paused' },
  blacklist: { severity: 'medium', title: 'Owner privilege: addresses can be blacklisted' },
  upgradeable: { severity: 'medium', title: 'Proxy upgradability: the code can be replaced' },
  proxy: { severity: 'medium', title: 'Proxy upgradability: a proxy contract whose implementation can change' },
  external_call: { severity: 'low', title: 'Calls external contracts in transfers' },
  trading_cooldown: { severity: 'low', title: 'Trading cooldown' },
  old_compiler: { severity: 'low', title: 'Compiled with an old compiler (Solidity before 0.8, Vyper before 0.3.10)' },
};

/** What one data type said about the target: findings, the checks it ran and the ones it could not. */
export interface TypeReport {
  findings: Finding[];
  checked: string[];
  unknown: string[];
  row?: Row;
  as_of?: number;
  /** Why the type did not answer, when it did not. */
  error?: SourceFailure['error'];
}

const EVIDENCE_FIELDS = [
  'is_honeypot',
  'buy_tax_pct',
  'sell_tax_pct',
  'is_proxy',
  'implementation',
  'owner_address',
  'risky_functions',
  'risk_score',
] as const;

const evidenceOf = (type: string, row: Row, risk: string) => ({
  type,
  risk,
  ...Object.fromEntries(EVIDENCE_FIELDS.filter((f) => row[f] !== undefined && row[f] !== null).map((f) => [f, row[f]])),
});

/**
 * Runs token-risk or contract-risk for `<chain>:<address>`. Each risk becomes a finding; each check the
 * upstream could not answer is `<type>:<check>` in unknown; a failed type is unknown as a whole.
 */
export async function runRiskType(runner: SourceRunner, type: 'token-risk' | 'contract-risk', q: string): Promise<TypeReport> {
  const result = await runner.run(type, q);
  if (!result.ok) return { findings: [], checked: [], unknown: [type], error: result.error };
  const row = result.rows[0]!;
  const risks = (row.risks as string[]) ?? [];
  const unknownChecks = (row.unknown_checks as string[]) ?? [];
  const source = `${type}:${result.source}`;
  const findings = risks.flatMap((risk) => {
    const known = RISK_FINDINGS[risk];
    return known ? [{ id: risk, severity: known.severity, title: known.title, evidence: evidenceOf(type, row, risk), source }] : [];
  });
  return { findings, checked: [type], unknown: unknownChecks.map((c) => `${type}:${c}`), row, as_of: result.as_of };
}
