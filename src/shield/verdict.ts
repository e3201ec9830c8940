import type { Finding, Severity } from './schemas.js';

/** Risk points per finding, by severity; the sum is capped at 100. */
export const SEVERITY_POINTS: Record<Severity, number> = { info: 0, low: 5, medium: 15, high: 30, critical: 60 };
/** Every check that could not run adds this much (uncertainty is not safety), up to UNKNOWN_CAP in all. */
export const UNKNOWN_POINTS = 5;
export const UNKNOWN_CAP = 20;

export type Verdict = 'allow' | 'warn' | 'block';

interface Rule {
  verdict: Verdict;
  when: string;
  applies(findings: readonly Finding[], risk: number): boolean;
}

const any = (findings: readonly Finding[], severity: Severity) => findings.some((f) => f.severity === severity);

/**
 * The verdict table, read top to bottom: the first row that applies decides. Documented in the OpenAPI
 * description verbatim (VERDICT_DOC), so the rule an agent reads is the rule svc runs.
 */
export const VERDICT_TABLE: Rule[] = [
  { verdict: 'block', when: 'any critical finding', applies: (f) => any(f, 'critical') },
  { verdict: 'block', when: 'risk >= 60', applies: (_, risk) => risk >= 60 },
  { verdict: 'warn', when: 'any high finding', applies: (f) => any(f, 'high') },
  { verdict: 'warn', when: 'risk >= 20', applies: (_, risk) => risk >= 20 },
  { verdict: 'allow', when: 'otherwise', applies: () => true },
];

/** risk = min(100, Σ severity points of the findings + min(UNKNOWN_CAP, UNKNOWN_POINTS × unknown checks)). */
export function riskOf(findings: readonly Finding[], unknownCount: number): number {
  const found = findings.reduce((sum, f) => sum + SEVERITY_POINTS[f.severity], 0);
  return Math.min(100, found + Math.min(UNKNOWN_CAP, UNKNOWN_POINTS * unknownCount));
}

export function decide(findings: readonly Finding[], unknownCount: number): { verdict: Verdict; risk: number; reasons: string[] } {
  const risk = riskOf(findings, unknownCount);
  const rule = VERDICT_TABLE.find((r) => r.applies(findings, risk))!;
  return { verdict: rule.verdict, risk, reasons: [`${rule.verdict}: ${rule.when}`] };
}

export const VERDICT_DOC =
  `risk = min(100, Σ points of the findings (${Object.entries(SEVERITY_POINTS)
    .map(([s, p]) => `${s} ${p}`)
    .join(', ')}) + ` +
  `min(${UNKNOWN_CAP}, ${UNKNOWN_POINTS} × the number of unknown checks)): a check that could not run adds risk, never removes it, so unknown checks ` +
  `never give allow with risk 0. Verdict, first matching row: ${VERDICT_TABLE.map((r) => `${r.when} → ${r.verdict}`).join('; ')}.`;
