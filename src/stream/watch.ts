import type { Config } from '../config.js';
import type { Registry } from '../sources/registry.js';

/** One entry of the live stream's watch list: a type's catalog example, polled every `everyS` seconds. */
export interface WatchEntry {
  type: string;
  q: string;
  everyS: number;
  /** The type's cache lifetime: a value older than this is fetched afresh when polled. */
  ttlS: number;
  /** The type's primary upstream, whose rate limit the interval respects. */
  host: string;
}

/**
 * The problem of an SVC_STREAM_WATCH list naming types the registry does not know, or undefined. Checked where the
 * registry is at hand (deps.ts, before anything opens), not in loadConfig: the configuration loads no feature.
 */
export function unknownWatchedTypes(registry: Registry, watch: Config['streamWatch']): string | undefined {
  const unknown = watch === 'all' || watch === 'off' ? [] : watch.filter((type) => !registry.get(type));
  return unknown.length > 0 ? `SVC_STREAM_WATCH: unknown data type ${unknown.map((type) => `"${type}"`).join(', ')}` : undefined;
}

/** No type is polled more often than this, however short its TTL. */
export const MIN_POLL_S = 60;
/** Seconds between the poller's requests to one upstream host, unless POLL_SPACING_S says otherwise. */
export const DEFAULT_SPACING_S = 60;
/**
 * Hosts with tight or unpublished limits (docs/streams.md cites them): the poller spaces its
 * requests further apart, so most of their budget stays for the callers' own queries.
 */
export const POLL_SPACING_S: Record<string, number> = {
  github: 600, // search API: 10 requests/min without a key
  courtlistener: 600, // about 5 requests/min anonymously
  opensky: 600, // anonymous callers get a small daily credit
  zeromev: 300, // no published limit
  redfin: 3600, // about one request per feed and minute tolerated; data changes daily
};

/**
 * The watch list: every type's catalog example (or those SVC_STREAM_WATCH names), each polled at
 * an interval no shorter than its TTL (a fresher poll would be answered from the cache), nor than
 * MIN_POLL_S, nor than its primary host's spacing times the number of watched types sharing that
 * host: the poller sends each host at most one request per spacing.
 */
export function watchPlan(registry: Registry, watch: Config['streamWatch']): WatchEntry[] {
  if (watch === 'off') return [];
  const descriptors = registry.all().filter((d) => watch === 'all' || watch.includes(d.type));
  const hostOf = (d: (typeof descriptors)[number]) => Object.keys(d.upstreams)[0] ?? 'curated';
  const sharing = new Map<string, number>();
  for (const d of descriptors) sharing.set(hostOf(d), (sharing.get(hostOf(d)) ?? 0) + 1);
  return descriptors.map((d) => {
    const host = hostOf(d);
    const spacing = (POLL_SPACING_S[host] ?? DEFAULT_SPACING_S) * sharing.get(host)!;
    return { type: d.type, q: d.example, host, ttlS: d.ttlSeconds, everyS: Math.max(d.ttlSeconds, MIN_POLL_S, spacing) };
  });
}
