import type { Cache } from '../cache/index.js';
import { sharedFlight } from '../cache/shared-flight.js';
import { UpstreamError, type FailureReason } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { corroboratedValue, isSettled, quorumReached, type CorroborationSpec, type SourceAnswer } from './corroborated-rows.js';
import { ruleInEffect, type RuleOverrides } from '../config-env-corroboration.js';
import { upstreamOrder, type Fetcher } from './define.js';
import type { CachedValue } from './result.js';
import { asUpstreamError, BACKSTOP_GRACE_MS, type Ask, type Outcome } from './answers.js';

/** One source's answer as cached (an UpstreamError does not survive JSON). */
type Stored = { value: CachedValue } | { failed: { reason: FailureReason; message: string } };

/** Keys whose last unsettled answer is remembered, at most (then forgotten at once: the cost is one history row each). */
const MAX_UNSETTLED = 10_000;

/** A source's failure, for when no source answered: `late` ones did not answer by the deadline. */
const failureOf = (host: HostName, answer: SourceAnswer): Outcome['failures'] => {
  if (answer === 'late') return [[host, new UpstreamError('upstream_timeout', `${host} did not answer in time`)]];
  return 'error' in answer ? [[host, answer.error]] : [];
};

/**
 * Asks every source of a corroborated type in parallel and signs as soon as every item is agreed by the type's
 * quorum, or when the deadline passes, or when all have answered, whichever is first (a caller forcing a refetch,
 * `max_age_s=0`, asked for the whole picture: it waits for every source). Each source's answer is cached under its own
 * key for the type's TTL and fetched once across concurrent callers (across instances too when they share the cache:
 * cache/shared-flight.ts), so recomputing an answer costs the upstreams nothing: a disputed answer, or one that lists a
 * source still answering at signing time (`late`), is not cached (runner), and the next caller gets it again with the
 * late sources' answers from their cache.
 */
export class Corroborator {
  private readonly inFlight = new Map<string, Promise<SourceAnswer>>();
  /** The rows_hash of the last unsettled answer recorded per answer key. */
  private readonly lastUnsettled = new Map<string, string>();

  /**
   * `overrides`: the operator's fields per type (SVC_CORROBORATION_RULES), over the declared rules. `shared`: the cache
   * is shared by several instances (Redis), whose fetches of one source are single-flight across them too.
   */
  constructor(
    private readonly cache: Cache,
    private readonly overrides: RuleOverrides = {},
    private readonly shared = false,
  ) {}

  async run(declared: CorroborationSpec, run: Ask): Promise<Outcome> {
    const spec = { ...declared, rule: ruleInEffect(declared.rule, this.overrides, run.descriptor.type) };
    const entries = upstreamOrder(run.descriptor, run.q);
    const answers = new Map<string, SourceAnswer>(entries.map(([host]) => [host, 'late']));
    let settled = 0;
    await new Promise<void>((resolve) => {
      // Every attempt settles by its backstop (deadline + grace) with its own error; the timer is a safety net.
      const timer = setTimeout(resolve, Math.max(0, run.deadline + 2 * BACKSTOP_GRACE_MS - Date.now()));
      for (const [host, fetcher] of entries) {
        void this.answerOf(run, host, fetcher).then((answer) => {
          answers.set(host, answer);
          if (++settled === entries.length || (!run.waitForAll && quorumReached(answers, spec))) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
    const failures = [...answers].flatMap(([host, answer]) => failureOf(host as HostName, answer));
    return { value: corroboratedValue(answers, spec), failures };
  }

  /**
   * Whether `value` is an unsettled answer identical to the one last recorded under `cacheKey`: recomputed from the
   * same cached source answers, it says nothing new, and writing it to history on every request would cost a row each.
   */
  repeatsUnsettled(cacheKey: string, value: CachedValue): boolean {
    if (isSettled(value)) {
      this.lastUnsettled.delete(cacheKey);
      return false;
    }
    if (this.lastUnsettled.get(cacheKey) === value.rows_hash) return true;
    if (this.lastUnsettled.size >= MAX_UNSETTLED) this.lastUnsettled.clear();
    this.lastUnsettled.set(cacheKey, value.rows_hash);
    return false;
  }

  /** One source's answer: cached within the TTL, joined when already being fetched, else fetched and cached. */
  private answerOf(run: Ask, host: HostName, fetcher: Fetcher<unknown>): Promise<SourceAnswer> {
    const key = `${run.cacheKey}@${host}`;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const fetched = this.cachedOrFetched(run, key, host, fetcher).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, fetched);
    return fetched;
  }

  /**
   * Never rejects: a failure, the cache's included, is this source's answer. Failures are cached for the TTL too, so a
   * failing source is asked once per TTL like the others, and answers that listed it `late` become cacheable.
   */
  private async cachedOrFetched(run: Ask, key: string, host: HostName, fetcher: Fetcher<unknown>): Promise<SourceAnswer> {
    try {
      const cached = run.fresh ? undefined : await this.cache.get<Stored>(key);
      if (cached) return answerOf(cached);
      if (!this.shared || run.fresh) return await this.fetched(run, key, host, fetcher);
      // Another instance may be fetching this source now: wait for its answer up to half the deadline, then fetch.
      const now = Date.now();
      const flight = await sharedFlight<Stored>(this.cache, key, run.deadline + BACKSTOP_GRACE_MS - now, now + (run.deadline - now) / 2);
      if ('value' in flight) return answerOf(flight.value);
      return await this.fetched(run, key, host, fetcher).finally(flight.release);
    } catch (e) {
      return { error: asUpstreamError(host, e) };
    }
  }

  /** Fetches the source and caches its answer, a failure included, for the TTL. */
  private async fetched(run: Ask, key: string, host: HostName, fetcher: Fetcher<unknown>): Promise<SourceAnswer> {
    const ttlMs = run.descriptor.ttlSeconds * 1000;
    try {
      const value = await run.attempt(host, fetcher, run.deadline);
      await this.cache.set(key, { value } satisfies Stored, ttlMs);
      return { value };
    } catch (e) {
      const error = asUpstreamError(host, e);
      await this.cache
        .set(key, { failed: { reason: error.reason, message: error.message } } satisfies Stored, ttlMs)
        .catch(() => undefined);
      return { error };
    }
  }
}

/** A cached answer as the source's answer (an UpstreamError rebuilt from its reason and message). */
const answerOf = (stored: Stored): SourceAnswer =>
  'value' in stored ? stored : { error: new UpstreamError(stored.failed.reason, stored.failed.message) };
