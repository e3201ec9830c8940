import type { Config } from '../config.js';
import type { SourceDescriptor } from '../sources/define.js';
import { LATENCY_BOUNDS_MS, tallyOf, type HealthSnapshot, type HostSnapshot, type TypeTally } from '../upstream/health.js';
import { hostEnvName, hostSpec, keyHostOf, type HostSpec } from '../upstream/hosts.js';
import type { CorroborationStatus } from './corroboration.js';

/**
 * Pure: recorded health (a merged snapshot) plus configuration → what each upstream and each data type is
 * worth right now. No secrets leave here: keys appear as "configured or not", errors as a reason and a status.
 */

export const TYPE_STATES = ['working', 'degraded', 'failing', 'needs_key', 'not_called'] as const;
export type TypeState = (typeof TYPE_STATES)[number];

export type Terms = NonNullable<HostSpec['terms']>;

/** A type's availability as the catalog carries it. */
export interface Availability {
  state: TypeState;
  reason: string;
  /** The variable whose key would let the type's first keyed upstream answer. */
  needs_key?: string;
  signup_url?: string;
  /** The terms of the upstream that answers (or is expected to answer) for this type. */
  terms?: Terms;
}

export interface TypeStatus extends Availability {
  type: string;
  /** The upstream that answered the last fresh fetch (`curated`: the data file), null before any. */
  source: string | null;
  /** The upstream tried first for that fetch. */
  primary: string | null;
  upstreams: string[];
  /** Unix s of the last fresh fetch. */
  checked_at: number | null;
  /** Fresh fetches in the window by how they went. */
  results: TypeTally;
  /** Corroborated types: how many of their sources answer here (status/corroboration.ts). */
  corroboration?: CorroborationStatus;
}

export interface HostStatus {
  name: string;
  key: 'required' | 'optional' | 'none';
  key_variable?: string;
  key_configured: boolean;
  signup_url?: string;
  terms?: Terms;
  /** Calls in the window, by outcome. */
  calls: number;
  outcomes: Record<string, number>;
  /** ok / calls that were attempted (a missing key sends nothing and does not count); null without any. */
  success_rate: number | null;
  latency_ms: { p50: number; p95: number } | null;
  last_success_at: number | null;
  last_error: { reason: string; status?: number; message: string; at: number } | null;
  circuit: 'closed' | 'half_open' | 'open';
}

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.floor(ms / 1000));

/** A reason and an HTTP status in words (no upstream text: it could carry anything). */
export function describeError(reason: string, status?: number): string {
  if (status === 451 || reason === 'region_blocked') return `refuses requests from this region${status ? ` (HTTP ${status})` : ''}`;
  if (status === 403) return 'refused the request (HTTP 403: a region or cloud-address block, a bad key or a missing User-Agent)';
  if (status === 401) return 'refused the key (HTTP 401)';
  const words: Record<string, string> = {
    upstream_rate_limited: 'rate limited',
    upstream_timeout: 'did not answer within the deadline',
    upstream_bad_response: 'answered in an unexpected shape (its format may have changed)',
    upstream_key_missing: 'needs a key',
    upstream_unavailable: 'circuit open after repeated failures',
    no_data: 'had no rows for the query',
    no_upstream: 'no upstream can answer this query',
    upstream_error: status ? `answered HTTP ${status}` : 'could not be reached',
  };
  const text = words[reason] ?? reason.replace(/_/g, ' ');
  return status && reason !== 'upstream_error' ? `${text} (HTTP ${status})` : text;
}

/** The p-quantile from histogram counts, interpolated inside its bucket (as Prometheus' histogram_quantile does). */
export function quantileMs(counts: number[], p: number): number {
  const total = counts.reduce((a, b) => a + (b ?? 0), 0);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] ?? 0;
    if (count > 0 && seen + count >= p * total) {
      const lower = LATENCY_BOUNDS_MS[i - 1] ?? 0;
      // The open last bucket reports its lower bound: nothing better is known of calls slower than the last bound.
      const upper = LATENCY_BOUNDS_MS[i] ?? lower;
      return Math.round(lower + (upper - lower) * ((p * total - seen) / count));
    }
    seen += count;
  }
  return 0;
}

function keyOf(name: string, config: Config) {
  const keyHost = keyHostOf(name);
  const key = hostSpec(keyHost)?.key;
  const configured = Boolean(config.upstreams[keyHost as keyof Config['upstreams']]?.key);
  return { key, keyHost, configured, missing: Boolean(key?.required && !configured), variable: hostEnvName(keyHost, 'KEY') };
}

export function hostStatus(name: string, recorded: HostSnapshot | undefined, config: Config): HostStatus {
  const spec = hostSpec(name);
  const { key, keyHost, configured, variable } = keyOf(name, config);
  const outcomes: Record<string, number> = {};
  const latency: number[] = [];
  for (const minute of Object.values(recorded?.minutes ?? {})) {
    for (const [outcome, n] of Object.entries(minute.outcomes)) outcomes[outcome] = (outcomes[outcome] ?? 0) + (n ?? 0);
    minute.latency.forEach((n, i) => (latency[i] = (latency[i] ?? 0) + (n ?? 0)));
  }
  const calls = Object.values(outcomes).reduce((a, b) => a + b, 0);
  const attempted = calls - (outcomes.key_missing ?? 0);
  const timed = latency.some((n) => n > 0);
  const error = recorded?.lastError;
  return {
    name,
    key: key ? (key.required ? 'required' : 'optional') : 'none',
    ...(key ? { key_variable: variable } : {}),
    key_configured: configured,
    ...(hostSpec(keyHost)?.signupUrl ? { signup_url: hostSpec(keyHost)!.signupUrl } : {}),
    ...(spec?.terms ? { terms: spec.terms } : {}),
    calls,
    outcomes,
    success_rate: attempted > 0 ? Math.round(((outcomes.ok ?? 0) / attempted) * 1000) / 1000 : null,
    latency_ms: timed ? { p50: quantileMs(latency, 0.5), p95: quantileMs(latency, 0.95) } : null,
    last_success_at: seconds(recorded?.lastSuccessAt),
    last_error: error ? { ...error, message: describeError(error.reason, error.status), at: Math.floor(error.at / 1000) } : null,
    circuit: recorded?.circuit ?? 'closed',
  };
}

/** The first of a type's upstreams whose required key is missing: what `needs_key` and `signup_url` name. */
function missingKey(hosts: string[], config: Config): Pick<Availability, 'needs_key' | 'signup_url'> {
  const first = hosts.map((h) => keyOf(h, config)).find((k) => k.missing);
  if (!first) return {};
  const signup = hostSpec(first.keyHost)?.signupUrl;
  return { needs_key: first.variable, ...(signup ? { signup_url: signup } : {}) };
}

export function typeStatus(descriptor: SourceDescriptor, health: HealthSnapshot, config: Config): TypeStatus {
  const hosts = Object.keys(descriptor.upstreams);
  const recorded = health.types[descriptor.type];
  const last = recorded?.last;
  const keyless = hosts.filter((h) => !keyOf(h, config).missing);
  const results: TypeTally = { ok: 0, degraded: 0, failed: 0 };
  for (const tally of Object.values(recorded?.minutes ?? {})) for (const k of ['ok', 'degraded', 'failed'] as const) results[k] += tally[k];
  const serving = last?.source ?? keyless[0] ?? hosts[0];
  const terms = serving ? hostSpec(serving)?.terms : undefined;
  const { state, reason } = stateOf(descriptor, health, config, keyless);
  return {
    type: descriptor.type,
    state,
    reason,
    ...missingKey(hosts, config),
    ...(terms ? { terms } : {}),
    source: last?.source ?? null,
    primary: last?.primary ?? null,
    upstreams: [...hosts, ...(descriptor.curated ? ['curated'] : [])],
    checked_at: seconds(last?.at),
    results,
  };
}

function stateOf(
  descriptor: SourceDescriptor,
  health: HealthSnapshot,
  config: Config,
  keyless: string[],
): Pick<TypeStatus, 'state' | 'reason'> {
  const hosts = Object.keys(descriptor.upstreams);
  const last = health.types[descriptor.type]?.last;
  const hostError = (host: string | undefined) => {
    // A host that borrows a token host's credentials fails there first (reddit → reddit-auth).
    const culprit = host && (health.hosts[host]?.lastError ? host : keyHostOf(host));
    const error = culprit ? health.hosts[culprit]?.lastError : undefined;
    return error ? `${culprit} ${describeError(error.reason, error.status)}` : `${host} did not answer`;
  };
  if (hosts.length > 0 && keyless.length === 0 && !descriptor.curated) {
    const variables = [...new Set(hosts.map((h) => keyOf(h, config).variable))];
    return { state: 'needs_key', reason: `every upstream needs a key: set ${variables.join(' or ')}` };
  }
  if (!last) return { state: 'not_called', reason: 'not fetched since this service started' };
  if (last.error === 'upstream_key_missing') return { state: 'needs_key', reason: hostError(last.primary) };
  if (last.source === undefined) {
    const own = last.error === 'no_data' || last.error === 'no_upstream' || !last.primary;
    const why = own ? describeError(last.error ?? 'upstream_error') : hostError(last.primary);
    return { state: 'failing', reason: hosts.length > 1 ? `${why}; no fallback answered` : why };
  }
  if (tallyOf(last) === 'degraded') {
    if (last.source === last.primary) return { state: 'degraded', reason: `${last.source} answered with partial data (items dropped)` };
    return { state: 'degraded', reason: `${last.source} answered as a fallback; ${hostError(last.primary)}` };
  }
  return { state: 'working', reason: `${last.source} answered` };
}
