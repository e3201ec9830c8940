import { ConsecutiveBreaker, circuitBreaker, handleAll, type CircuitBreakerPolicy } from 'cockatiel';
import { ApiError } from '../core/errors.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { Blocked, BucketState, CacheBackend, SlotRef, TakeOptions } from './index.js';
import type { MemoryCache } from './memory.js';

/** Failed Redis commands in a row that declare it unavailable. */
const FAILURES_TO_BREAK = 3;
/** While unavailable, one command a second probes whether Redis is back; the others do not wait for it. */
export const PROBE_EVERY_MS = 1000;

/** Whether a dependency answers; listeners hear each change once (the log line of an outage, the gauge). */
export class Availability {
  private current = true;
  private readonly listeners = new Set<(available: boolean, error?: unknown) => void>();

  get available(): boolean {
    return this.current;
  }

  onChange(listener: (available: boolean, error?: unknown) => void): void {
    this.listeners.add(listener);
  }

  set(available: boolean, error?: unknown): void {
    if (available === this.current) return;
    this.current = available;
    for (const listener of this.listeners) listener(available, error);
  }
}

/** The 503 of a use that must not fall back (a claim made in-process could be made again on another instance). */
export const storeUnavailable = () =>
  new ApiError('store_unavailable', 'the shared store is unavailable; retry shortly', { retry_after_s: PROBE_EVERY_MS / 1000 });

/**
 * Redis with a policy per use (docs/operations.md). Every command has a deadline (ioredis
 * commandTimeout) and no offline queue; after FAILURES_TO_BREAK failures in a row Redis counts as
 * unavailable and commands stop waiting for it until a probe succeeds. Meanwhile rate buckets,
 * abuse counters, statistics, cached answers and stream slots live in the in-process cache
 * (per instance); a single-use claim (`setIfAbsent`) fails closed with 503 store_unavailable.
 */
export class ResilientCache implements CacheBackend {
  private readonly breaker: CircuitBreakerPolicy;

  constructor(
    private readonly redis: CacheBackend,
    private readonly local: MemoryCache,
    readonly availability: Availability,
    /** Called with the operation each time the in-process cache answered for Redis. */
    private readonly onFallback: (operation: string) => void = () => {},
  ) {
    this.breaker = circuitBreaker(handleAll, { halfOpenAfter: PROBE_EVERY_MS, breaker: new ConsecutiveBreaker(FAILURES_TO_BREAK) });
    this.breaker.onBreak((reason) => availability.set(false, 'error' in reason ? reason.error : undefined));
    this.breaker.onReset(() => availability.set(true));
  }

  get<T>(key: string): Promise<T | undefined> {
    return this.either('get', (cache) => cache.get<T>(key));
  }

  set(key: string, value: unknown, ttlMs: number): Promise<void> {
    return this.either('set', (cache) => cache.set(key, value, ttlMs));
  }

  async setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean> {
    try {
      return await this.breaker.execute(() => this.redis.setIfAbsent(key, value, ttlMs));
    } catch {
      throw storeUnavailable();
    }
  }

  delete(key: string): Promise<void> {
    return this.either('delete', (cache) => cache.delete(key));
  }

  incr(key: string, ttlMs: number, by?: number): Promise<number> {
    return this.either('incr', (cache) => cache.incr(key, ttlMs, by));
  }

  take(key: string, capacity: number, ratePerS: number, nowMs: number, options?: TakeOptions): MaybePromise<BucketState | Blocked> {
    return this.either('take', (cache) => cache.take(key, capacity, ratePerS, nowMs, options));
  }

  acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean> {
    return this.either('acquire_slot', (cache) => cache.acquireSlot(key, holder, limit, leaseMs, nowMs));
  }

  renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void> {
    return this.both((cache) => cache.renewSlots(slots, leaseMs, nowMs));
  }

  releaseSlot(key: string, holder: string): Promise<void> {
    return this.both((cache) => cache.releaseSlot(key, holder));
  }

  countSlots(key: string, nowMs: number): Promise<number> {
    return this.either('count_slots', (cache) => cache.countSlots(key, nowMs));
  }

  /** Redis, or the in-process cache when Redis fails or is known to be unavailable. */
  private async either<T>(operation: string, run: (cache: CacheBackend) => MaybePromise<T>): Promise<T> {
    try {
      return await this.breaker.execute(() => run(this.redis));
    } catch {
      this.onFallback(operation);
      return run(this.local);
    }
  }

  /** Slots may have been taken on either side of an outage: renew or release them on both. */
  private async both(run: (cache: CacheBackend) => Promise<void>): Promise<void> {
    await Promise.all([this.breaker.execute(() => run(this.redis)).catch(() => undefined), run(this.local)]);
  }
}
