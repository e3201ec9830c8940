import type { Clock } from '../core/clock.js';

/**
 * Upstream health, aggregated in process: per host, the outcome and latency of every call; per data type,
 * the last fresh result and a tally of fresh results. Counts live in one-minute buckets over a sliding
 * window, so recording is a few map writes and memory is bounded (hosts × types × minutes). A snapshot is
 * plain JSON: `status/` shares it across instances through Redis and merges snapshots with `mergeSnapshots`.
 */

export const CALL_OUTCOMES = ['ok', 'error', 'timeout', 'rate_limited', 'circuit_open', 'key_missing', 'bad_response'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** One upstream call as the client saw it. */
export interface CallReport {
  host: string;
  outcome: CallOutcome;
  /** Wall time of the call, retries included; 0 when no request was sent (key missing, circuit open). */
  ms: number;
  /** The HTTP status behind an error, when the upstream answered one. */
  status?: number;
  /** The failure reason (`upstream_error`, …) of a failed call. */
  reason?: string;
}

/** How one fresh fetch of a data type went (cache hits say nothing about upstreams and are not recorded). */
export interface TypeOutcome {
  /** Unix ms. */
  at: number;
  /** The upstream that answered (`curated` for the data file), absent on failure. */
  source?: string;
  /** The upstream tried first for this query. */
  primary?: string;
  /** The failure reason when nothing answered. */
  error?: string;
  /** Some items of the answer were dropped (the upstream sent bad items) or the rows say they are partial. */
  partial?: boolean;
  /** Corroborated types (docs/corroboration.md): the worst row status, and each source asked with its quote or its error. */
  corroboration?: { status: string; sources: Record<string, { quote?: string; error?: string }> };
}

/** Latency bucket upper bounds in ms (the last bucket is everything above). */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 200, 350, 500, 750, 1000, 1500, 2500, 4000, 6000, 10_000, 15_000, 30_000];

export interface HostMinute {
  outcomes: Partial<Record<CallOutcome, number>>;
  /** Counts per LATENCY_BOUNDS_MS bucket, plus one for slower calls. */
  latency: number[];
}

export type CircuitState = 'closed' | 'half_open' | 'open';

export interface HostSnapshot {
  minutes: Record<string, HostMinute>;
  /** The host's circuit breaker as the instance saw it when it shared the snapshot (absent = closed). */
  circuit?: CircuitState;
  lastSuccessAt?: number;
  lastError?: { reason: string; status?: number; at: number };
}

export type TypeTally = { ok: number; degraded: number; failed: number };

export interface TypeSnapshot {
  minutes: Record<string, TypeTally>;
  last?: TypeOutcome;
}

export interface HealthSnapshot {
  hosts: Record<string, HostSnapshot>;
  types: Record<string, TypeSnapshot>;
}

export const WINDOW_MINUTES = 15;
const minuteOf = (ms: number) => Math.floor(ms / 60_000);

export function latencyBucket(ms: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return index < 0 ? LATENCY_BOUNDS_MS.length : index;
}

/** Drops the minutes that left the window; the object is the snapshot's own, so this is done in place. */
function prune<T>(minutes: Record<string, T>, nowMs: number): void {
  const oldest = minuteOf(nowMs) - WINDOW_MINUTES + 1;
  for (const minute of Object.keys(minutes)) if (Number(minute) < oldest) delete minutes[minute];
}

export class UpstreamHealth {
  private readonly state: HealthSnapshot = { hosts: {}, types: {} };
  /** Bumped on every record: readers memoize what they computed from the same version. */
  version = 0;

  constructor(private readonly clock: Clock) {}

  recordCall(call: CallReport): void {
    const now = this.clock.now();
    const host = (this.state.hosts[call.host] ??= { minutes: {} });
    const minute = (host.minutes[minuteOf(now)] ??= { outcomes: {}, latency: [] });
    minute.outcomes[call.outcome] = (minute.outcomes[call.outcome] ?? 0) + 1;
    if (call.ms > 0) {
      const bucket = latencyBucket(call.ms);
      minute.latency[bucket] = (minute.latency[bucket] ?? 0) + 1;
    }
    if (call.outcome === 'ok') host.lastSuccessAt = now;
    else host.lastError = { reason: call.reason ?? call.outcome, ...(call.status ? { status: call.status } : {}), at: now };
    prune(host.minutes, now);
    this.version++;
  }

  recordType(type: string, outcome: Omit<TypeOutcome, 'at'>): void {
    const now = this.clock.now();
    const entry = (this.state.types[type] ??= { minutes: {} });
    const tally = (entry.minutes[minuteOf(now)] ??= { ok: 0, degraded: 0, failed: 0 });
    tally[tallyOf(outcome)]++;
    entry.last = { ...outcome, at: now };
    prune(entry.minutes, now);
    this.version++;
  }

  /** A copy limited to the window (safe to serialize or merge). */
  snapshot(): HealthSnapshot {
    const now = this.clock.now();
    const copy = structuredClone(this.state);
    for (const host of Object.values(copy.hosts)) prune(host.minutes, now);
    for (const type of Object.values(copy.types)) prune(type.minutes, now);
    return copy;
  }
}

export function tallyOf(outcome: Omit<TypeOutcome, 'at'>): keyof TypeTally {
  if (outcome.source === undefined) return 'failed';
  return outcome.partial || outcome.source !== outcome.primary ? 'degraded' : 'ok';
}

const newer = <T extends { at: number }>(a: T | undefined, b: T | undefined): T | undefined => (!a || (b && b.at > a.at) ? b : a);

function sumInto<T extends Record<string, number | undefined> | number[]>(target: T, source: T): void {
  for (const [k, v] of Object.entries(source))
    (target as Record<string, number>)[k] = ((target as Record<string, number>)[k] ?? 0) + (v ?? 0);
}

/** Worst last: one instance with an open breaker makes the host's circuit open. */
const CIRCUITS: CircuitState[] = ['closed', 'half_open', 'open'];

/** Several instances' snapshots as one: counts added, the newest "last" values kept. */
export function mergeSnapshots(snapshots: HealthSnapshot[]): HealthSnapshot {
  const merged: HealthSnapshot = { hosts: {}, types: {} };
  for (const snapshot of snapshots) {
    for (const [name, host] of Object.entries(snapshot.hosts)) {
      const into = (merged.hosts[name] ??= { minutes: {} });
      for (const [minute, counts] of Object.entries(host.minutes)) {
        const target = (into.minutes[minute] ??= { outcomes: {}, latency: [] });
        sumInto(target.outcomes, counts.outcomes);
        sumInto(target.latency, counts.latency);
      }
      if (host.lastSuccessAt !== undefined) into.lastSuccessAt = Math.max(into.lastSuccessAt ?? 0, host.lastSuccessAt);
      into.lastError = newer(into.lastError, host.lastError);
      if (host.circuit && CIRCUITS.indexOf(host.circuit) > CIRCUITS.indexOf(into.circuit ?? 'closed')) into.circuit = host.circuit;
    }
    for (const [name, type] of Object.entries(snapshot.types)) {
      const into = (merged.types[name] ??= { minutes: {} });
      for (const [minute, tally] of Object.entries(type.minutes))
        sumInto((into.minutes[minute] ??= { ok: 0, degraded: 0, failed: 0 }), tally);
      into.last = newer(into.last, type.last);
    }
  }
  return merged;
}
