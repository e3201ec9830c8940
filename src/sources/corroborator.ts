import type { Cache } from '../cache/index.js';
import { UpstreamError } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { corroboratedValue, quorumReached, type CorroborationSpec, type SourceAnswer } from './corroborated-rows.js';
import { upstreamOrder, type Fetcher } from './define.js';
import type { CachedValue } from './result.js';
import { asUpstreamError, type Ask, type Outcome } from './answers.js';

/** A source's failure, for when no source answered: `late` ones did not answer by the deadline. */
const failureOf = (host: HostName, answer: SourceAnswer): Outcome['failures'] => {
  if (answer === 'late') return [[host, new UpstreamError('upstream_timeout', `${host} did not answer in time`)]];
  return 'error' in answer ? [[host, answer.error]] : [];
};

/**
 * Asks every source of a corroborated type in parallel and signs as soon as every item is agreed by the type's
 * quorum, or when the deadline passes, or when all have answered, whichever is first. Each source's answer is cached
 * under its own key for the type's TTL and fetched once across concurrent callers, so recomputing an answer (a
 * disputed one is never cached, see runner) costs the upstreams nothing, and a source still answering at signing
 * time (listed `late`) lands in its cache for the next caller.
 */
export class Corroborator {
  private readonly inFlight = new Map<string, Promise<SourceAnswer>>();

  constructor(private readonly cache: Cache) {}

  async run(spec: CorroborationSpec, run: Ask): Promise<Outcome> {
    const entries = upstreamOrder(run.descriptor, run.q);
    const answers = new Map<string, SourceAnswer>(entries.map(([host]) => [host, 'late']));
    let settled = 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, run.deadline - Date.now()));
      for (const [host, fetcher] of entries) {
        void this.answerOf(run, host, fetcher).then((answer) => {
          answers.set(host, answer);
          if (++settled === entries.length || quorumReached(answers, spec)) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
    });
    const failures = [...answers].flatMap(([host, answer]) => failureOf(host as HostName, answer));
    return { value: corroboratedValue(answers, spec), failures };
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

  /** Never rejects: a failure, the cache's included, is this source's answer. */
  private async cachedOrFetched(run: Ask, key: string, host: HostName, fetcher: Fetcher<unknown>): Promise<SourceAnswer> {
    try {
      const cached = run.fresh ? undefined : await this.cache.get<CachedValue>(key);
      if (cached) return { value: cached };
      const value = await run.attempt(host, fetcher, run.deadline);
      await this.cache.set(key, value, run.descriptor.ttlSeconds * 1000);
      return { value };
    } catch (e) {
      return { error: asUpstreamError(host, e) };
    }
  }
}
