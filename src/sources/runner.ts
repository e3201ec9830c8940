import { ApiError } from '../core/errors.js';
import { sha256Tagged } from '../core/canonical-json.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { Cache } from '../cache/index.js';
import type { SourceHistoryRepo } from '../store/repos/source-history.js';
import type { UpstreamClient } from '../upstream/client.js';
import { UpstreamError, type FailureReason } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import type { Fetcher, Row, SourceDescriptor } from './define.js';
import type { Registry } from './registry.js';

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
  rows: Row[];
  rows_hash: string;
  source_mode?: 'replay';
}

export interface SourceFailure {
  ok: false;
  type: string;
  q: string;
  error: FailureReason;
  message: string;
  attempts: { source: string; error: FailureReason }[];
  retry_after_s?: number;
}

export type SourceResult = SourceSuccess | SourceFailure;

interface CachedValue {
  source: string;
  as_of: number;
  fetched_at: number;
  rows: Row[];
  rows_hash: string;
}

export interface RunOptions {
  /** Serve from cache only if the value is at most this many seconds old; 0 forces a fresh fetch. */
  maxAgeS?: number;
}

export interface RunnerDeps {
  registry: Registry;
  upstream: UpstreamClient;
  cache: Cache;
  history: SourceHistoryRepo;
  clock: Clock;
  config: Config;
  /** Caps every type's deadline (tests use short ones). */
  deadlineCapMs?: number;
}

/** How long past its TTL a value may still be served while a refresh runs in the background. */
const STALE_FACTOR = 4;

/**
 * Runs a data type: parse q, then cache (TTL + stale-while-revalidate), single-flight, and the
 * upstreams in priority order inside the type's deadline. Never throws for upstream trouble:
 * that becomes an `ok:false` result with a reason.
 */
export class SourceRunner {
  private readonly inFlight = new Map<string, Promise<SourceResult>>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Parses q for the type; throws 400s for an unknown type or a malformed q. */
  prepare(type: string, rawQ: string | undefined): { descriptor: SourceDescriptor; key: string } {
    const descriptor = this.deps.registry.get(type);
    if (!descriptor) {
      throw new ApiError('unknown_type', `unknown data type "${type}"`, { field: 'type', allowed: this.deps.registry.types() });
    }
    const parsed = descriptor.parseQ((rawQ ?? '').trim());
    return { descriptor, key: descriptor.keyOf ? descriptor.keyOf(parsed) : (rawQ ?? '').trim() };
  }

  async run(type: string, rawQ: string | undefined, options: RunOptions = {}): Promise<SourceResult> {
    const { descriptor, key } = this.prepare(type, rawQ);
    const cacheKey = `src:${descriptor.type}:${key}`;
    const cached = options.maxAgeS === 0 ? undefined : await this.deps.cache.get<CachedValue>(cacheKey);
    if (cached) {
      const ageS = (this.deps.clock.now() - cached.fetched_at) / 1000;
      const maxAge = Math.min(options.maxAgeS ?? Infinity, descriptor.ttlSeconds * (1 + STALE_FACTOR));
      if (ageS <= maxAge) {
        if (ageS > descriptor.ttlSeconds && options.maxAgeS === undefined) void this.refresh(descriptor, key, cacheKey);
        return this.success(descriptor.type, key, cached, true);
      }
    }
    return this.refresh(descriptor, key, cacheKey);
  }

  /** Single-flight: concurrent identical runs share one upstream fetch. */
  private refresh(descriptor: SourceDescriptor, key: string, cacheKey: string): Promise<SourceResult> {
    let pending = this.inFlight.get(cacheKey);
    if (!pending) {
      pending = this.fetchFresh(descriptor, key, cacheKey).finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, pending);
    }
    return pending;
  }

  private async fetchFresh(descriptor: SourceDescriptor, key: string, cacheKey: string): Promise<SourceResult> {
    const q = descriptor.parseQ(key);
    const deadlineMs = Math.min(descriptor.deadlineMs, this.deps.deadlineCapMs ?? Infinity);
    const deadline = Date.now() + deadlineMs;
    const declared = Object.entries(descriptor.upstreams) as [HostName, Fetcher<unknown>][];
    const order = descriptor.order?.(q);
    const entries = order ? order.map((host) => declared.find(([name]) => name === host)!) : declared;
    const attempts: SourceFailure['attempts'] = [];
    let firstError: UpstreamError | undefined;
    for (const [index, [host, fetcher]] of entries.entries()) {
      const share = Math.floor((deadline - Date.now()) / (entries.length - index));
      try {
        const rows = await this.attempt(host, fetcher, q, Date.now() + share);
        return this.store(descriptor, key, cacheKey, this.stamp(host, rows));
      } catch (e) {
        const error = e instanceof UpstreamError ? e : new UpstreamError('upstream_bad_response', `${host}: ${(e as Error).message}`);
        attempts.push({ source: host, error: error.reason });
        if (!firstError || (firstError.reason === 'upstream_key_missing' && error.reason !== 'upstream_key_missing')) firstError = error;
      }
    }
    if (descriptor.curated) {
      const rows = await descriptor.curated(q, { clock: this.deps.clock, config: this.deps.config });
      if (rows.length > 0) return this.store(descriptor, key, cacheKey, this.stamp('curated', rows));
      attempts.push({ source: 'curated', error: 'no_data' });
      firstError ??= new UpstreamError('no_data', 'the curated data set has no entry for this query');
    }
    const error = firstError ?? new UpstreamError('upstream_unavailable', 'no upstream is configured for this type');
    return failure(descriptor.type, key, error.reason, error.message, attempts, error.info.retryAfterS);
  }

  private async store(descriptor: SourceDescriptor, key: string, cacheKey: string, value: CachedValue): Promise<SourceSuccess> {
    await this.deps.cache.set(cacheKey, value, descriptor.ttlSeconds * (1 + STALE_FACTOR) * 1000);
    const { rows, ...meta } = value;
    await this.deps.history.record({ type: descriptor.type, q: key, ...meta, rows_json: JSON.stringify(rows) });
    return this.success(descriptor.type, key, value, false);
  }

  private async attempt(host: HostName, fetcher: Fetcher<unknown>, q: unknown, deadline: number): Promise<Row[]> {
    const { upstream, clock, config } = this.deps;
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new UpstreamError('upstream_timeout', `${host} did not answer in time`)), Math.max(0, deadline - Date.now()));
    });
    try {
      const ctx = { http: upstream.host(host), upstream: (name: HostName) => upstream.host(name), deadline, clock, config };
      const rows = await Promise.race([fetcher(q, ctx), overrun]);
      if (rows.length === 0) throw new UpstreamError('no_data', `${host} returned no rows for this query`);
      return rows;
    } finally {
      clearTimeout(timer);
    }
  }

  private stamp(source: string, rows: Row[]): CachedValue {
    const fetchedAt = this.deps.clock.now();
    const fallbackAsOf = Math.floor(fetchedAt / 1000);
    const stamped = rows.map((row) => ({ ...row, source, as_of: typeof row.as_of === 'number' ? row.as_of : fallbackAsOf }));
    const asOf = Math.max(...stamped.map((r) => r.as_of));
    // The hash covers the data only, so a refetch of unchanged values keeps its hash (cursors say "unchanged").
    const rowsHash = sha256Tagged(stamped.map(({ as_of, ...data }) => data));
    return { source, as_of: asOf, fetched_at: fetchedAt, rows: stamped, rows_hash: rowsHash };
  }

  private success(type: string, q: string, value: CachedValue, cached: boolean): SourceSuccess {
    return { ok: true, type, q, ...value, cached, ...(this.deps.config.demo ? { source_mode: 'replay' as const } : {}) };
  }
}

function failure(
  type: string,
  q: string,
  error: FailureReason,
  message: string,
  attempts: SourceFailure['attempts'],
  retryAfterS?: number,
): SourceFailure {
  return { ok: false, type, q, error, message, attempts, ...(retryAfterS ? { retry_after_s: retryAfterS } : {}) };
}
