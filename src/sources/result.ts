import { sha256Tagged } from '../core/canonical-json.js';
import type { FailureReason } from '../upstream/errors.js';
import type { Cache } from '../cache/index.js';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { SourceHistoryRepo } from '../store/repos/source-history.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { Row, SourceDescriptor } from './define.js';
import { observed, withoutFreshness, type NextUpdate } from './freshness.js';
import type { Registry } from './registry.js';
import type { BackgroundErrors } from '../core/background.js';

/** What running a data type answers: rows with their provenance, or a failure with a named reason. */
export interface SourceSuccess {
  ok: true;
  type: string;
  q: string;
  /** The upstream that answered. */
  source: string;
  /** Unix seconds of the data (the newest row's as_of). */
  as_of: number;
  /** Unix ms when svc fetched it; never restamped when served from cache. */
  fetched_at: number;
  cached: boolean;
  /** Served past the type's TTL (as every row says). */
  stale: boolean;
  rows: Row[];
  rows_hash: string;
  /** Items of a long upstream list that did not fit its shape and were left out (absent when none were). */
  skipped_items?: number;
  /** Answers of the demo simulator (SVC_DEMO=1) say so; the receipt signs it too. */
  source_mode?: 'demo';
}

export interface SourceFailure {
  ok: false;
  type: string;
  q: string;
  /** Why: an upstream failure, or `unknown_symbol` when every upstream refused q as naming nothing (the caller's mistake). */
  error: FailureReason | 'unknown_symbol';
  message: string;
  /** For `unknown_symbol`: `{field: 'q', q, suggestions}`. */
  details?: Record<string, unknown>;
  attempts: { source: string; error: FailureReason }[];
  retry_after_s?: number;
}

export type SourceResult = SourceSuccess | SourceFailure;

export interface CachedValue {
  source: string;
  as_of: number;
  fetched_at: number;
  rows: Row[];
  rows_hash: string;
  skipped_items?: number;
}

/**
 * Stamps each row with `source` (or, for curated rows, the citation the row carries) and its observation fields
 * (freshness.ts); `age_s` and `stale` are added per answer by the runner.
 */
export function stampRows(
  source: string,
  rows: Row[],
  fetchedAt: number,
  { rowSource = () => source, nextUpdate }: { rowSource?: (row: Row) => string; nextUpdate?: NextUpdate } = {},
): CachedValue {
  const stamped = rows.map((row) => observed({ ...row, source: rowSource(row) }, fetchedAt, nextUpdate));
  const asOf = Math.max(...stamped.map((r) => r.as_of as number));
  // The hash covers the data only, so a refetch of unchanged values keeps its hash (cursors say "unchanged").
  const rowsHash = sha256Tagged(stamped.map(withoutFreshness));
  return { source, as_of: asOf, fetched_at: fetchedAt, rows: stamped, rows_hash: rowsHash };
}

export function failure(
  type: string,
  q: string,
  error: FailureReason,
  message: string,
  attempts: SourceFailure['attempts'],
  retryAfterS?: number,
): SourceFailure {
  return { ok: false, type, q, error, message, attempts, ...(retryAfterS ? { retry_after_s: retryAfterS } : {}) };
}

export interface RunOptions {
  /** Serve from cache only if the value is at most this many seconds old; 0 forces a fresh fetch. */
  maxAgeS?: number;
}

export interface RunnerDeps {
  registry: Registry;
  upstream: UpstreamClient;
  cache: Cache;
  /** Where fresh results are recorded for the time machine (the doctor records nothing). */
  history: Pick<SourceHistoryRepo, 'record'>;
  clock: Clock;
  config: Config;
  /** Caps every type's deadline (tests use short ones). */
  deadlineCapMs?: number;
  /**
   * Corroborated types sign once their quorum agrees (default); false waits for every source up to the deadline, so
   * which sources answered does not depend on timing (tests, recorded examples).
   */
  signAtQuorum?: boolean;
  /** Counts and logs a failed background refresh of a stale value (the caller already has its answer). */
  background?: Pick<BackgroundErrors, 'failed' | 'succeeded'>;
  /** Told of every fresh result (not cache hits): upstream health records which upstream answered. */
  onFresh?(descriptor: SourceDescriptor, result: SourceResult): void;
}
