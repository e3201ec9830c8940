import type { Config } from '../config.js';
import { systemClock } from '../core/clock.js';
import { createCache } from '../cache/index.js';
import type { SourceDescriptor } from '../sources/define.js';
import { registry as defaultRegistry, type Registry } from '../sources/registry.js';
import { SourceRunner } from '../sources/runner.js';
import { UpstreamClient } from '../upstream/client.js';
import { UpstreamHealth, type HealthSnapshot } from '../upstream/health.js';
import { hostEnvName, hostSpec, keyHostOf } from '../upstream/hosts.js';
import { userAgentWarning } from '../upstream/user-agent.js';
import { outcomeOf } from './service.js';
import { corroborationAdvice, corroborationField, describeCorroboration, type CorroborationStatus } from './corroboration.js';
import { typeStatus, type Terms, type TypeState, type TypeStatus } from './view.js';

/**
 * The doctor: runs every data type's catalog example once against the configured upstreams and says, per type,
 * who answered, how fast, and what an operator can do about it. Polite and bounded: no upstream host serves two
 * types at once, each type keeps its own deadline (capped), and types not started within the time budget are
 * reported as skipped, so it ends within the budget plus one deadline even with no network at all.
 */

export type Verdict = 'ok' | 'degraded' | 'failing' | 'needs_key' | 'skipped';

export interface DoctorRow {
  type: string;
  q: string;
  verdict: Verdict;
  /** The upstream that answered (`curated`: the data file), null when none did. */
  source: string | null;
  latency_ms: number | null;
  reason: string;
  /** What to do, most useful first: a variable to set, where to get its key, what the terms allow. */
  advice: string[];
  terms?: Terms;
  /** Corroborated types: how many of their sources answer here (docs/corroboration.md, "Operations"). */
  corroboration?: CorroborationStatus;
}

export interface DoctorReport {
  rows: DoctorRow[];
  /** Types whose verdict is failing, needs_key or skipped: the doctor exits non-zero when there are any. */
  failed: number;
  warnings: string[];
}

export interface DoctorOptions {
  types?: string[];
  /** Types checked at once (never two on one upstream host). */
  concurrency?: number;
  /** Cap on each type's own deadline. */
  deadlineMs?: number;
  /** No type starts after this much time has passed. */
  budgetMs?: number;
  registry?: Registry;
}

const VERDICT_OF: Record<TypeState, Verdict> = {
  working: 'ok',
  degraded: 'degraded',
  failing: 'failing',
  needs_key: 'needs_key',
  not_called: 'skipped',
};

export async function runDoctor(config: Config, options: DoctorOptions = {}): Promise<DoctorReport> {
  const registry = options.registry ?? defaultRegistry;
  const health = new UpstreamHealth(systemClock);
  const upstream = new UpstreamClient(config, { observe: (call) => health.recordCall(call) });
  const runner = new SourceRunner({
    registry,
    upstream,
    cache: createCache(undefined, () => Date.now()),
    history: { record: async () => {} },
    clock: systemClock,
    config,
    deadlineCapMs: options.deadlineMs ?? 15_000,
    onFresh: (descriptor, result) => health.recordType(descriptor.type, outcomeOf(descriptor, result)),
  });
  const descriptors = registry.all().filter((d) => !options.types || options.types.includes(d.type));
  const latency = new Map<string, number>();
  /** Types whose example the type itself refused (a 400 for its own catalog example is a bug worth reporting). */
  const refused = new Map<string, string>();
  const stopStartingAt = Date.now() + (options.budgetMs ?? 120_000);
  try {
    await forEachPolitely(descriptors, options.concurrency ?? 4, async (d) => {
      if (Date.now() > stopStartingAt) return;
      const started = performance.now();
      await runner.run(d.type, d.example, { maxAgeS: 0 }).catch((e: Error) => refused.set(d.type, e.message));
      latency.set(d.type, Math.round(performance.now() - started));
    });
  } finally {
    await upstream.close();
  }
  const snapshot = health.snapshot();
  const rows = descriptors.map((d) => {
    const row = rowOf(
      d,
      { ...typeStatus(d, snapshot, config), ...corroborationField(d, snapshot, config) },
      snapshot,
      config,
      latency.get(d.type),
    );
    const refusal = refused.get(d.type);
    return refusal ? { ...row, verdict: 'failing' as const, reason: `the catalog example was refused: ${refusal}` } : row;
  });
  const warning = config.demo ? undefined : userAgentWarning(config.userAgent);
  return { rows, failed: rows.filter((r) => !['ok', 'degraded'].includes(r.verdict)).length, warnings: warning ? [warning] : [] };
}

/** Runs `work` over the items, at most `limit` at once and never two that share an upstream host. */
async function forEachPolitely(items: SourceDescriptor[], limit: number, work: (item: SourceDescriptor) => Promise<void>): Promise<void> {
  const hostsOf = (d: SourceDescriptor) => Object.keys(d.upstreams).flatMap((h) => [h, keyHostOf(h)]);
  const busy = new Set<string>();
  const waiting = [...items];
  const running = new Set<Promise<void>>();
  while (waiting.length > 0 || running.size > 0) {
    const index = running.size < limit ? waiting.findIndex((d) => hostsOf(d).every((h) => !busy.has(h))) : -1;
    if (index < 0) {
      await Promise.race(running);
      continue;
    }
    const [item] = waiting.splice(index, 1) as [SourceDescriptor];
    const hosts = hostsOf(item);
    for (const h of hosts) busy.add(h);
    const task: Promise<void> = work(item).finally(() => {
      for (const h of hosts) busy.delete(h);
      running.delete(task);
    });
    running.add(task);
  }
}

function rowOf(d: SourceDescriptor, status: TypeStatus, health: HealthSnapshot, config: Config, latencyMs?: number): DoctorRow {
  const verdict = VERDICT_OF[status.state];
  const reason = verdict === 'skipped' ? 'not run: the time budget was used up' : status.reason;
  return {
    type: d.type,
    q: d.example,
    verdict,
    source: status.source,
    latency_ms: latencyMs ?? null,
    reason,
    advice: [...adviceFor(status, health, config), ...corroborationAdvice(status.corroboration)],
    ...(status.terms ? { terms: status.terms } : {}),
    ...(status.corroboration ? { corroboration: status.corroboration } : {}),
  };
}

function adviceFor(status: TypeStatus, health: HealthSnapshot, config: Config): string[] {
  const advice: string[] = [];
  if (status.needs_key) advice.push(`set ${status.needs_key}${status.signup_url ? ` (get a key at ${status.signup_url})` : ''}`);
  const primary = status.primary && (health.hosts[status.primary]?.lastError ? status.primary : keyHostOf(status.primary));
  const error = primary ? health.hosts[primary]?.lastError : undefined;
  if (primary && error && (status.state === 'failing' || status.state === 'degraded')) {
    const fix = error.reason === 'upstream_key_missing' ? undefined : fixFor(primary, error, config);
    if (fix) advice.push(fix);
  }
  if (status.terms && status.terms.commercial !== 'allowed') {
    advice.push(`commercial use: ${status.terms.commercial}${status.terms.note ? ` (${status.terms.note})` : ''}, see ${status.terms.url}`);
  }
  return advice;
}

/** What to do about the primary's last error (the row's reason already says what it was). */
function fixFor(host: string, error: { reason: string; status?: number }, config: Config): string | undefined {
  const spec = hostSpec(host);
  const keyVariable = hostEnvName(keyHostOf(host), 'KEY');
  if (error.status === 403 && spec?.userAgent === 'identify' && userAgentWarning(config.userAgent)) {
    return 'set SVC_USER_AGENT to your name and contact address';
  }
  if (error.status === 451 || error.status === 403 || error.reason === 'region_blocked') {
    return `${host} blocks this region or network: run svc from another, or rely on the fallback`;
  }
  if (error.status === 401) return `check ${keyVariable}`;
  if (error.reason === 'upstream_rate_limited') {
    return `retry later${spec?.key && !spec.key.required ? `, or set ${keyVariable} for a higher limit` : ''}`;
  }
  if (error.reason === 'upstream_bad_response') return `${host} changed its response: update svc, or report the type as broken`;
  if (error.reason === 'upstream_timeout' || (error.reason === 'upstream_error' && !error.status)) {
    return `check outbound network access to ${host} (DNS, firewall, proxy)`;
  }
  return undefined;
}

/** The report as a plain-text table: type, upstream that answered, latency, verdict, what to do. */
export function formatDoctor(report: DoctorReport): string {
  const header = ['type', 'upstream', 'latency', 'verdict', 'what to do'];
  const cells = report.rows.map((r) => [
    r.type,
    r.source ?? '–',
    r.latency_ms === null ? '–' : `${r.latency_ms} ms`,
    r.verdict,
    // A missing key is said by the advice (with where to get one).
    [r.verdict === 'ok' || r.verdict === 'needs_key' ? '' : r.reason, ...r.advice].filter(Boolean).join('; ') || '–',
  ]);
  const widths = header.slice(0, 4).map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => [...c.slice(0, 4).map((v, i) => v.padEnd(widths[i]!)), c[4]].join('  ');
  const counts = (['ok', 'degraded', 'needs_key', 'failing', 'skipped'] as const)
    .map((v) => `${report.rows.filter((r) => r.verdict === v).length} ${v}`)
    .join(', ');
  const corroborated = report.rows.flatMap((r) => (r.corroboration ? [describeCorroboration(r.type, r.corroboration)] : []));
  return [
    ...report.warnings.map((w) => `warning: ${w}`),
    line(header),
    ...cells.map(line),
    // The totals stay the last line: what a script reading the summary takes.
    ...(corroborated.length ? ['', 'corroborated prices (sources answering here):', ...corroborated.map((c) => `  ${c}`)] : []),
    '',
    `${report.rows.length} types: ${counts}`,
    '',
  ].join('\n');
}
