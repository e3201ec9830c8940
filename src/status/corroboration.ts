import type { Config } from '../config.js';
import { ruleInEffect } from '../config-env-corroboration.js';
import type { SourceDescriptor } from '../sources/define.js';
import type { Corroboration } from '../sources/corroboration.js';
import type { SourceResult } from '../sources/result.js';
import type { HealthSnapshot, HostSnapshot, TypeOutcome } from '../upstream/health.js';
import { hostSpec, keyHostOf } from '../upstream/hosts.js';
import { describeError } from './view.js';

/**
 * Per corroborated type, how many of its sources answer at this site (docs/corroboration.md, "Operations"). Read from
 * what svc already knows, never from a call of its own: the configuration (a key not set), the type's last fresh answer
 * (each source's verdict, shared across instances with the health figures) and each host's recorded calls and circuit.
 */

export const SOURCE_STATES = ['answering', 'no_key', 'region_blocked', 'erroring', 'not_called'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];
export const OUTLOOKS = ['corroborated', 'below_quorum', 'unknown'] as const;

type Seen = NonNullable<TypeOutcome['corroboration']>;

export interface SourceAvailability {
  source: string;
  state: SourceState;
  /** The currency the source priced in at the last answer that listed its value. */
  quote?: string;
  /** Why it does not answer, in words. */
  reason?: string;
}

export interface CorroborationStatus {
  /** The rule in effect (SVC_CORROBORATION_RULES, else the declared one). */
  rule: { quorum: number; outlier_bps: number; stale_after_s: number; quote: string | null };
  answering: number;
  /** Of the answering sources, those pricing in the rule's quote: what can make up the quorum. */
  answering_in_quote: number;
  outlook: (typeof OUTLOOKS)[number];
  /** The status of the last fresh answer's rows (the worst of them), null before any. */
  last_status: Corroboration['status'] | null;
  sources: SourceAvailability[];
}

const STATUS_ORDER: Corroboration['status'][] = ['agreed', 'single_source', 'disputed'];

/** A fresh answer's blocks, summed up for the health record: the worst status, and each source's quote or error. */
export function corroborationSeen(result: SourceResult): Seen | undefined {
  const blocks = result.ok ? result.rows.flatMap((row) => (row.corroboration ? [row.corroboration as Corroboration] : [])) : [];
  if (blocks.length === 0) return undefined;
  const sources: Seen['sources'] = {};
  for (const verdict of blocks.flatMap((b) => b.sources)) {
    const entry = (sources[verdict.source] ??= {});
    if (verdict.quote) entry.quote = verdict.quote;
    else if (verdict.error) entry.error = verdict.error;
  }
  const status = blocks.map((b) => b.status).reduce((a, b) => (STATUS_ORDER.indexOf(b) > STATUS_ORDER.indexOf(a) ? b : a));
  return { status, sources };
}

/** A host's own record as a state: the newest of its last success and last error, an open circuit first. */
function hostState(host: HostSnapshot | undefined): { state: SourceState; at: number; reason?: string } {
  if (host?.circuit === 'open') return { state: 'erroring', at: Infinity, reason: describeError('upstream_unavailable') };
  const error = host?.lastError;
  if (error && error.at >= (host.lastSuccessAt ?? 0)) {
    const blocked = error.reason === 'region_blocked' || error.status === 451;
    return { state: blocked ? 'region_blocked' : 'erroring', at: error.at, reason: describeError(error.reason, error.status) };
  }
  return host?.lastSuccessAt ? { state: 'answering', at: host.lastSuccessAt } : { state: 'not_called', at: 0 };
}

/** The state the last fresh answer gave a source (a late one says nothing about the source: its host's record does). */
function answerState(entry: Seen['sources'][string] | undefined): { state: SourceState; reason?: string } | undefined {
  if (!entry || entry.error === 'late') return undefined;
  if (!entry.error) return { state: 'answering' };
  if (entry.error === 'no_key') return { state: 'no_key', reason: describeError('upstream_key_missing') };
  return { state: entry.error === 'region_blocked' ? 'region_blocked' : 'erroring', reason: describeError(entry.error) };
}

/** A key not set wins; then the newer of the type's last answer and the host's own record (a tie: the answer). */
function availability(source: string, last: TypeOutcome | undefined, health: HealthSnapshot, config: Config): SourceAvailability {
  const quote = last?.corroboration?.sources[source]?.quote;
  const keyHost = keyHostOf(source);
  const missingKey = hostSpec(keyHost)?.key?.required && !config.upstreams[keyHost as keyof Config['upstreams']]?.key;
  if (missingKey) return { source, state: 'no_key', reason: describeError('upstream_key_missing') };
  const fromHost = hostState(health.hosts[source]);
  const fromAnswer = answerState(last?.corroboration?.sources[source]);
  const newest = fromAnswer && last!.at >= fromHost.at ? fromAnswer : fromHost;
  // The host's record has the HTTP status the answer's verdict lacks.
  const reason = (fromHost.state === newest.state ? fromHost.reason : undefined) ?? newest.reason;
  return { source, state: newest.state, ...(quote ? { quote } : {}), ...(reason ? { reason } : {}) };
}

/** Sources answering in the rule's quote; without one (priced in the listing currency), in the quote most answer in. */
function answeringIn(answering: { quote?: string }[], quote: string | undefined): number {
  const counts = new Map<string | undefined, number>();
  for (const source of answering) counts.set(source.quote, (counts.get(source.quote) ?? 0) + 1);
  if (quote !== undefined) return counts.get(quote) ?? 0;
  return Math.max(0, ...[...counts].filter(([q]) => q !== undefined).map(([, n]) => n));
}

/** The `corroboration` field of a type's status: present only for corroborated types. */
export function corroborationField(descriptor: SourceDescriptor, health: HealthSnapshot, config: Config) {
  const corroboration = corroborationStatus(descriptor, health, config);
  return corroboration ? { corroboration } : {};
}

/** The type's corroboration at this site, or undefined when the type is not corroborated. */
export function corroborationStatus(descriptor: SourceDescriptor, health: HealthSnapshot, config: Config): CorroborationStatus | undefined {
  if (!descriptor.corroboration) return undefined;
  const rule = ruleInEffect(descriptor.corroboration.rule, config.corroboration, descriptor.type);
  const last = health.types[descriptor.type]?.last;
  const sources = Object.keys(descriptor.upstreams).map((source) => availability(source, last, health, config));
  const answering = sources.filter((s) => s.state === 'answering');
  const inQuote = answeringIn(answering, rule.quote);
  // Sources not heard from yet, or answering in a quote not seen yet, may still make up the quorum.
  const open = sources.filter((s) => s.state === 'not_called' || (s.state === 'answering' && !s.quote)).length;
  const outlook = inQuote >= rule.quorum ? 'corroborated' : inQuote + open >= rule.quorum ? 'unknown' : 'below_quorum';
  return {
    rule: { quorum: rule.quorum, outlier_bps: rule.outlierBps, stale_after_s: rule.staleAfterS, quote: rule.quote ?? null },
    answering: answering.length,
    answering_in_quote: inQuote,
    outlook,
    last_status: (last?.corroboration?.status as Corroboration['status'] | undefined) ?? null,
    sources,
  };
}

const unavailable = (c: CorroborationStatus) =>
  c.sources.filter((s) => s.state !== 'answering' && s.state !== 'not_called').map((s) => `${s.source} ${s.state}`);

/** One line for the doctor: how many sources answer, in the quote, against the quorum, and which do not and why. */
export function describeCorroboration(type: string, c: CorroborationStatus): string {
  const counts = `${c.answering} of ${c.sources.length} sources answer (${c.answering_in_quote} in ${c.rule.quote ?? 'one currency'}, quorum ${c.rule.quorum})`;
  const missing = unavailable(c);
  return `${type}: ${counts}: ${c.outlook.replace('_', ' ')}${missing.length ? `; ${missing.join(', ')}` : ''}`;
}

/** What the doctor advises when too few sources answer here for a corroborated price. */
export function corroborationAdvice(c: CorroborationStatus | undefined): string[] {
  if (c?.outlook !== 'below_quorum') return [];
  const missing = unavailable(c);
  return [
    `only ${c.answering_in_quote} source(s) answer${c.rule.quote ? ` in ${c.rule.quote}` : ''} here, fewer than the quorum of ${c.rule.quorum}: ` +
      `rows will be single_source or disputed${missing.length ? ` (${missing.join(', ')})` : ''}`,
  ];
}
