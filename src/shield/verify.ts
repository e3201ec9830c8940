import { unixSeconds, type Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { evmTargetQ, type EvmTarget } from '../sources/lib/evm-chains.js';
import type { SourceRunner } from '../sources/runner.js';
import type { LookalikeIndex } from './lookalike.js';
import { runRiskType, type TypeReport } from './risk-findings.js';
import type { Action, Finding, Severity, TargetKind } from './schemas.js';
import { parseTarget, URL_UNKNOWN, urlFindings } from './url-checks.js';
import { decide } from './verdict.js';

/** Checks for an address with no data type behind them in the catalog: always unknown. */
export const ADDRESS_UNKNOWN = ['sanctions', 'address-reputation'] as const;
/** An allowance at or above 2^255 is the "infinite approval" wallets send (2^256 − 1 and friends). */
const UNLIMITED = 2n ** 255n;
const RANK: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

export interface VerifyInput {
  target: { kind: TargetKind; value: string; chain?: string };
  action?: Action;
  amount?: string;
}

const ENTITY_SOURCE = 'svc:entity-graph';
const entityFinding = (id: string, severity: Severity, title: string, evidence: Record<string, unknown>): Finding => ({
  id,
  severity,
  title,
  evidence,
  source: ENTITY_SOURCE,
});

/** One finding per id: the most severe wins (token-risk and contract-risk both report e.g. mintable). */
function merge(reports: TypeReport[]): TypeReport {
  const byId = new Map<string, Finding>();
  for (const f of reports.flatMap((r) => r.findings))
    if (!byId.has(f.id) || RANK[f.severity] > RANK[byId.get(f.id)!.severity]) byId.set(f.id, f);
  const asOf = Math.max(0, ...reports.map((r) => r.as_of ?? 0));
  return {
    findings: [...byId.values()],
    checked: reports.flatMap((r) => r.checked),
    unknown: reports.flatMap((r) => r.unknown),
    as_of: asOf || undefined,
  };
}

export class ShieldVerifier {
  constructor(private readonly deps: { runner: SourceRunner; names: LookalikeIndex; clock: Clock }) {}

  async verify(input: VerifyInput) {
    const report = merge([await this.targetChecks(input), this.actionChecks(input)]);
    const unknown = [...new Set(report.unknown)];
    const { verdict, risk, reasons } = decide(report.findings, unknown.length);
    return {
      target: this.normalized(input),
      action: input.action ?? null,
      verdict,
      risk,
      reasons,
      findings: report.findings.sort((a, b) => RANK[b.severity] - RANK[a.severity]),
      checked: [...new Set(report.checked)],
      unknown,
      as_of: report.as_of ?? unixSeconds(this.deps.clock),
    };
  }

  private normalized(input: VerifyInput): Record<string, unknown> {
    const { kind, value } = input.target;
    if (kind === 'url' || kind === 'domain')
      return { kind, value: kind === 'url' ? parseTarget(kind, value).href : parseTarget(kind, value).hostname };
    const { chain, address } = this.evm(input);
    return { kind, chain, value: address };
  }

  private evm(input: VerifyInput): EvmTarget {
    try {
      return evmTargetQ('<chain>:<address>', 'ethereum:0x…')(`${input.target.chain ?? 'ethereum'}:${input.target.value}`);
    } catch {
      throw new ApiError('validation_failed', 'target.value must be 0x followed by 40 hex digits for contract, token and address targets', {
        field: 'target.value',
      });
    }
  }

  private async targetChecks(input: VerifyInput): Promise<TypeReport> {
    const { kind, value } = input.target;
    if (kind === 'url' || kind === 'domain') {
      return {
        findings: urlFindings(parseTarget(kind, value), input.action, this.deps.names),
        checked: ['svc:url-rules', 'svc:lookalike-entities'],
        unknown: [...URL_UNKNOWN],
      };
    }
    const target = this.evm(input);
    const q = `${target.chain}:${target.address}`;
    const label = this.label(target);
    if (kind === 'address') return merge([label, { findings: [], checked: [], unknown: [...ADDRESS_UNKNOWN] }]);
    if (kind === 'contract') return merge([label, await runRiskType(this.deps.runner, 'contract-risk', q)]);
    const [token, contract] = await Promise.all([
      runRiskType(this.deps.runner, 'token-risk', q),
      runRiskType(this.deps.runner, 'contract-risk', q),
    ]);
    return merge([label, token, contract, this.impersonation(target, token)]);
  }

  /** Address labels: the entity graph's contracts. An address it does not list gets no label, which says nothing either way. */
  private label(target: EvmTarget): TypeReport {
    const entity = this.deps.names.byContract(target.chain, target.address);
    const findings = entity
      ? [
          entityFinding('known_entity', 'info', `The contract of ${entity.name} in the entity graph`, {
            entity_id: entity.id,
            name: entity.name,
          }),
        ]
      : [];
    return { findings, checked: ['svc:address-label'], unknown: [] };
  }

  /** A token named like a known entity (symbol or name) at another address than the entity's contract impersonates it. */
  private impersonation(target: EvmTarget, token: TypeReport): TypeReport {
    if (!token.row) return { findings: [], checked: [], unknown: ['svc:token-impersonation'] };
    const { token_symbol: symbol, token_name: name } = token.row as { token_symbol: string | null; token_name: string | null };
    const imitated = this.deps.names
      .byTokenName(target.chain, symbol, name)
      .filter((e) => e.contracts![target.chain]!.toLowerCase() !== target.address);
    const findings = imitated.slice(0, 1).map((e) =>
      entityFinding('impersonates_known_token', 'critical', `Named like ${e.name} but not its contract`, {
        token_symbol: symbol,
        token_name: name,
        entity_id: e.id,
        entity_contract: e.contracts![target.chain]!.toLowerCase(),
      }),
    );
    return { findings, checked: ['svc:token-impersonation'], unknown: [] };
  }

  private actionChecks(input: VerifyInput): TypeReport {
    if (input.action !== 'approve' || input.target.kind === 'url' || input.target.kind === 'domain')
      return { findings: [], checked: [], unknown: [] };
    if (input.amount === undefined) return { findings: [], checked: [], unknown: ['approval-amount'] };
    const unlimited = BigInt(input.amount) >= UNLIMITED;
    const findings: Finding[] = unlimited
      ? [
          {
            id: 'unlimited_approval',
            severity: 'high',
            title: 'Unlimited approval: the spender can take every token, now and later',
            evidence: { amount: input.amount },
            source: 'svc:approval-rules',
          },
        ]
      : [];
    return { findings, checked: ['svc:approval-amount'], unknown: [] };
  }
}
