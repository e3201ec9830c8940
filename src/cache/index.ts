import type { Redis } from 'ioredis';
import type { MaybePromise } from '../core/maybe-promise.js';
import { LeasedBuckets } from './leased-buckets.js';
import { MemoryCache } from './memory.js';
import { RedisCache } from './redis.js';
import { ResilientCache, type Availability } from './resilient.js';

/**
 * A TTL key/value cache of JSON values: in-process by default, Redis when several instances share it. Most features
 * need only this; rate limits need a Limiter and capped connections Slots, which the same backend offers (CacheBackend).
 */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** Set only when absent; true when this call set it (leases, single-use claims). */
  setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds `by` to a counter (created at 0 with `ttlMs` to live) and returns the new value. */
  incr(key: string, ttlMs: number, by?: number): Promise<number>;
}

/** Token buckets, the rate limits of protection/service.ts. */
export interface Limiter {
  /**
   * Token bucket: refills `ratePerS` tokens a second up to `capacity` and takes one if it can.
   * Atomic (one Lua script on Redis), so several instances share one bucket. With `blockKey`, a
   * future Unix ms stored there refuses the request first and nothing is taken. Answers at once in
   * memory: rate limiting runs on every request.
   */
  take(key: string, capacity: number, ratePerS: number, nowMs: number, options?: TakeOptions): MaybePromise<BucketState | Blocked>;
}

/** Leased concurrency slots, the caps of long-lived connections (cache/concurrency.ts). */
export interface Slots {
  /**
   * `holder` takes one of at most `limit` slots under `key`, leased until
   * `nowMs + leaseMs`; expired leases are swept first, so a crashed holder's slots free themselves.
   * Atomic (one Lua script on Redis), so several instances share one cap. False when all are held.
   */
  acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean>;
  /** Extends the leases of slots still held (a released or expired slot is not re-taken). */
  renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void>;
  releaseSlot(key: string, holder: string): Promise<void>;
  /** Slots under `key` with an unexpired lease. */
  countSlots(key: string, nowMs: number): Promise<number>;
}

/** What each of the two backends (in-process, Redis) offers, on one connection: the app holds one as `deps.cache`. */
export type CacheBackend = Cache & Limiter & Slots;

/** Counters `take` bumps in the same step (one round trip on Redis): `allowed` or `denied`, created with `ttlMs`. */
export interface Tally {
  allowed: string;
  denied: string;
  ttlMs: number;
}

export interface TakeOptions {
  tally?: Tally;
  /** Take up to this many whole tokens at once (a lease, src/cache/leased-buckets.ts); default 1. */
  want?: number;
  /** Unspent tokens of an earlier lease, put back (never past the capacity) before taking. */
  giveBack?: number;
  /** A cache key that, while it holds a future Unix ms, refuses the take (an abuse block), checked in the same step. */
  blockKey?: string;
}

/** `take` refused by its block key: nothing was taken, nothing counted. */
export interface Blocked {
  blockedUntil: number;
}

export interface SlotRef {
  key: string;
  holder: string;
}

export interface BucketState {
  allowed: boolean;
  /** Tokens this take got: 1 or 0, up to `want` for a lease. */
  granted: number;
  /** Tokens left after this request. */
  remaining: number;
  /** Seconds until one token is available again (0 when allowed). */
  retryAfterS: number;
  /** Seconds until the bucket is full again. */
  resetS: number;
}

/** How a Redis-backed cache reports outages: its availability, and each operation the in-process cache answered instead. */
export interface OutageReporting {
  availability: Availability;
  onFallback: (operation: string) => void;
}

/** In-process, or Redis (through the outage policy when `outages` is given) with rate-limit tokens leased in batches. */
export function createCache(redis: Redis | undefined, now: () => number, outages?: OutageReporting): CacheBackend {
  if (!redis) return new MemoryCache(now);
  const shared = outages
    ? new ResilientCache(new RedisCache(redis), new MemoryCache(now), outages.availability, outages.onFallback)
    : new RedisCache(redis);
  return new LeasedBuckets(shared);
}
