import { UpstreamError } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { upstreamOrder, type Fetcher, type SourceDescriptor } from './define.js';
import type { CachedValue } from './result.js';

/** How long after the deadline the runner stops waiting for a fetcher that ignores it. */
export const BACKSTOP_GRACE_MS = 100;

/** Fetches, stamps and checks one upstream's rows by the deadline (the runner's `attempt`). */
export type Attempt = (host: HostName, fetcher: Fetcher<unknown>, deadline: number) => Promise<CachedValue>;

/** One asking of a type's upstreams for a parsed query. */
export interface Ask {
  descriptor: SourceDescriptor;
  q: unknown;
  /** The runner's cache key of the answer. */
  cacheKey: string;
  /** Epoch ms. */
  deadline: number;
  /** Ask every source afresh (a caller's `max_age_s=0`), not their answers cached within the TTL. */
  fresh: boolean;
  /** Corroborated types: wait for every source (up to the deadline) rather than sign once the quorum agrees. */
  waitForAll: boolean;
  attempt: Attempt;
}

/** What asking a type's upstreams gave: a value to serve, and each upstream that failed, in declared order. */
export interface Outcome {
  value?: CachedValue;
  failures: [HostName, UpstreamError][];
}

export const asUpstreamError = (host: string, e: unknown): UpstreamError =>
  e instanceof UpstreamError ? e : new UpstreamError('upstream_bad_response', `${host}: ${(e as Error).message}`);

/** The upstreams in priority order, each with its share of the time left, until one answers. */
export async function firstAnswer({ descriptor, q, deadline, attempt }: Ask): Promise<Outcome> {
  const entries = upstreamOrder(descriptor, q);
  const failures: Outcome['failures'] = [];
  for (const [index, [host, fetcher]] of entries.entries()) {
    const share = Math.floor((deadline - Date.now()) / (entries.length - index));
    try {
      return { value: await attempt(host, fetcher, Date.now() + share), failures };
    } catch (e) {
      failures.push([host, asUpstreamError(host, e)]);
    }
  }
  return { failures };
}

/** The failure to report: a missing key says less about the query than any other, so another one when there is one. */
export const reportedError = (failures: Outcome['failures']): UpstreamError | undefined =>
  failures.find(([, e]) => e.reason !== 'upstream_key_missing')?.[1] ?? failures[0]?.[1];
