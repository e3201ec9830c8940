import { ApiError } from '../core/errors.js';
import { UpstreamError } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { beforeDeadline } from './deadline.js';
import { Generations } from './generations.js';
import { curatedValue } from './curated.js';
import { isStale, servedRows } from './freshness.js';
import { refusedEverywhere, resolveQ, unknownSymbolFailure } from './vocabulary.js';
import type { Fetcher, SourceDescriptor } from './define.js';
import { Corroborator } from './corroborator.js';
import { BACKSTOP_GRACE_MS, firstAnswer, reportedError, type Ask, type Attempt } from './answers.js';
import { isSettled } from './corroborated-rows.js';
import { failure, stampRows, type CachedValue, type RunnerDeps, type RunOptions } from './result.js';
import type { SourceFailure, SourceResult, SourceSuccess } from './result.js';

export type { RunnerDeps, RunOptions, SourceFailure, SourceResult, SourceSuccess } from './result.js';

/** How long past its TTL a value may still be served while a refresh runs in the background. */
const STALE_FACTOR = 4;

/**
 * Runs a data type: parse q, then cache (TTL + stale-while-revalidate), single-flight, and the
 * upstreams in priority order inside the type's deadline. Never throws for upstream trouble:
 * that becomes an `ok:false` result with a reason.
 */
export class SourceRunner {
  private readonly inFlight = new Map<string, Promise<SourceResult>>();
  private readonly generations = new Generations();
  private readonly corroborator: Corroborator;

  constructor(private readonly deps: RunnerDeps) {
    // Instances sharing Redis share each source's fetch too; in-process, single-flight within the process suffices.
    this.corroborator = new Corroborator(deps.cache, deps.config.corroboration, Boolean(deps.config.redisUrl));
  }

  /** Parses q for the type; throws 400s for an unknown type or a malformed q. */
  prepare(type: string, rawQ: string | undefined): { descriptor: SourceDescriptor; key: string } {
    const descriptor = this.deps.registry.get(type);
    if (!descriptor)
      throw new ApiError('unknown_type', `unknown data type "${type}"`, { field: 'type', allowed: this.deps.registry.types() });
    return { descriptor, key: resolveQ(descriptor, rawQ ?? '').key };
  }

  cacheKeyOf(type: string, key: string): string {
    return `src:${type}:${key}`;
  }

  /** Changes whenever this process stores a new value under `cacheKey`: answers built on an older one are retired. */
  generationOf(cacheKey: string): number | undefined {
    return this.generations.of(cacheKey);
  }

  async run(type: string, rawQ: string | undefined, options: RunOptions = {}): Promise<SourceResult> {
    const { descriptor, key } = this.prepare(type, rawQ);
    const cacheKey = this.cacheKeyOf(descriptor.type, key);
    const cached = options.maxAgeS === 0 ? undefined : await this.deps.cache.get<CachedValue>(cacheKey);
    if (cached) {
      const ageS = (this.deps.clock.now() - cached.fetched_at) / 1000;
      const maxAge = Math.min(options.maxAgeS ?? Infinity, descriptor.ttlSeconds * (1 + STALE_FACTOR));
      if (ageS <= maxAge) {
        if (ageS > descriptor.ttlSeconds && options.maxAgeS === undefined) this.refreshInBackground(descriptor, key, cacheKey);
        return this.success(descriptor, key, cached, true);
      }
    }
    return this.refresh(descriptor, key, cacheKey, options.maxAgeS === 0);
  }

  /** A stale value was served: refresh it for the next caller; a failure (the database away) must not end the process. */
  private refreshInBackground(descriptor: SourceDescriptor, key: string, cacheKey: string): void {
    const { background } = this.deps;
    this.refresh(descriptor, key, cacheKey, false).then(
      () => background?.succeeded('stale-refresh'),
      (err: unknown) => background?.failed('stale-refresh', err),
    );
  }

  /** Single-flight: concurrent identical runs share one upstream fetch. */
  private refresh(descriptor: SourceDescriptor, key: string, cacheKey: string, fresh: boolean): Promise<SourceResult> {
    const pending = this.inFlight.get(cacheKey);
    if (pending) return pending;
    const fetched = this.fetchFresh(descriptor, key, cacheKey, fresh)
      .then((result) => {
        this.deps.onFresh?.(descriptor, result);
        return result;
      })
      .finally(() => this.inFlight.delete(cacheKey));
    this.inFlight.set(cacheKey, fetched);
    return fetched;
  }

  private async fetchFresh(descriptor: SourceDescriptor, key: string, cacheKey: string, fresh: boolean): Promise<SourceResult> {
    const q = descriptor.parseQ(key);
    const deadline = Date.now() + Math.min(descriptor.deadlineMs, this.deps.deadlineCapMs ?? Infinity);
    const attempt: Attempt = (host, fetcher, by) => this.attempt(descriptor, host, fetcher, q, by);
    const waitForAll = fresh || this.deps.signAtQuorum === false;
    const ask: Ask = { descriptor, q, cacheKey, deadline, fresh, waitForAll, attempt };
    const spec = descriptor.corroboration;
    const { value, failures } = spec ? await this.corroborator.run(spec, ask) : await firstAnswer(ask);
    if (value) return this.store(descriptor, key, cacheKey, value);
    const attempts: SourceFailure['attempts'] = failures.map(([source, error]) => ({ source, error: error.reason }));
    let firstError = reportedError(failures);
    const errors = failures.map(([, error]) => error);
    if (refusedEverywhere(descriptor, errors)) return unknownSymbolFailure(descriptor, key, attempts);
    if (descriptor.curated) {
      const curated = await curatedValue(descriptor, q, this.deps);
      if (curated) return this.store(descriptor, key, cacheKey, curated);
      attempts.push({ source: 'curated', error: 'no_data' });
      firstError ??= new UpstreamError('no_data', 'the curated data set has no entry for this query');
    }
    const error = firstError ?? new UpstreamError('no_upstream', 'no upstream is configured for this type');
    return failure(descriptor.type, key, error.reason, error.message, attempts, error.info.retryAfterS);
  }

  private async store(descriptor: SourceDescriptor, key: string, cacheKey: string, value: CachedValue): Promise<SourceSuccess> {
    if (isSettled(value)) await this.deps.cache.set(cacheKey, value, descriptor.ttlSeconds * (1 + STALE_FACTOR) * 1000);
    this.generations.bump(cacheKey);
    const { rows, skipped_items, ...meta } = value;
    if (!this.corroborator.repeatsUnsettled(cacheKey, value))
      await this.deps.history.record({ type: descriptor.type, q: key, ...meta, rows_json: JSON.stringify(rows) });
    return this.success(descriptor, key, value, false);
  }

  /** The fetcher's rows, stamped, with how many items of long upstream lists had to be left out. */
  private async attempt(
    descriptor: SourceDescriptor,
    host: HostName,
    fetcher: Fetcher<unknown>,
    q: unknown,
    deadline: number,
  ): Promise<CachedValue> {
    const { upstream, clock, config } = this.deps;
    const tally = { skipped: 0 };
    const ctx = { http: upstream.host(host, tally), upstream: (name: HostName) => upstream.host(name, tally), deadline, clock, config };
    const late = () => new UpstreamError('upstream_timeout', `${host} did not answer in time`);
    // A backstop for fetchers that overrun; the grace lets the HTTP client's own, more precise, error win the race.
    const rows = await beforeDeadline(fetcher(q, ctx), deadline + BACKSTOP_GRACE_MS, late);
    if (rows.length === 0) throw new UpstreamError('no_data', `${host} returned no rows for this query`);
    const value = stampRows(host, rows, clock.now(), { nextUpdate: descriptor.nextUpdate });
    return tally.skipped ? { ...value, skipped_items: tally.skipped } : value;
  }

  /** The one place every answer of a type is built: its rows get `age_s` and `stale` as of now (freshness.ts). */
  private success(descriptor: SourceDescriptor, q: string, value: CachedValue, cached: boolean): SourceSuccess {
    const served = { fetchedAtMs: value.fetched_at, ttlSeconds: descriptor.ttlSeconds, nowMs: this.deps.clock.now() };
    const demo = this.deps.config.demo ? { source_mode: 'demo' as const } : {};
    return { ok: true, type: descriptor.type, q, ...value, rows: servedRows(value.rows, served), cached, stale: isStale(served), ...demo };
  }
}
