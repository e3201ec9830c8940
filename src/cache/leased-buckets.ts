import { LRUCache } from 'lru-cache';
import { mapMaybe, type MaybePromise } from '../core/maybe-promise.js';
import type { Blocked, BucketState, CacheBackend, SlotRef, Tally, TakeOptions } from './index.js';
import { bucketState } from './token-bucket.js';

/** How long a lease may be spent locally: what another instance's block or a shared denial can take to be seen here. */
export const LEASE_MS = 1000;
/** A lease holds at most a tenth of the bucket, and never more than this many tokens. */
export const MAX_LEASE_TOKENS = 1000;
/** Leases kept at most (a client rotating addresses cannot grow them; an evicted lease's tokens are only lost). */
const MAX_LEASES = 50_000;

/** The most tokens one instance takes from a shared bucket at once. */
export const maxLease = (capacity: number) => Math.max(1, Math.min(MAX_LEASE_TOKENS, Math.floor(capacity / 10)));

/**
 * The next lease's size: a client that spent its whole lease before it expired gets twice as many
 * (up to maxLease), one that did not gets half, so a client of one request a second costs one
 * round trip per request as before, and a busy one a round trip per maxLease requests.
 */
export function nextLeaseSize(previous: { size: number; spentAll: boolean } | undefined, capacity: number): number {
  if (!previous) return 1;
  return previous.spentAll ? Math.min(maxLease(capacity), previous.size * 2) : Math.max(1, Math.ceil(previous.size / 2));
}

/** Tokens taken from the shared bucket and spent here, or a refusal (a block, an empty bucket) repeated here. */
interface Lease {
  size: number;
  /** Unspent tokens. */
  tokens: number;
  /** Whole tokens the shared bucket had left when the lease was taken. */
  sharedLeft: number;
  until: number;
  refusal?: BucketState | Blocked;
  /** The round trip that renews it, which requests arriving meanwhile wait for. */
  renewing?: Promise<unknown>;
}

/**
 * Token buckets on a shared cache (Redis) without a round trip per request, as Unkey's and Upstash's
 * limiters avoid one: a take spends a token leased from the shared bucket in a batch, and goes to
 * the shared bucket only when its lease is spent or LEASE_MS old. Leased tokens leave the shared
 * bucket, so all instances together never allow more than the bucket does; the costs are that up to
 * maxLease − 1 tokens per instance sit unspent in a lease (given back when it is renewed), and that
 * a block or refusal decided elsewhere reaches this instance within LEASE_MS (docs/operations.md).
 * Tallies are counted here and added to the shared counters on each renewal, by a timer, and
 * before a read of the counter. Everything but `take` goes straight to the shared cache.
 */
export class LeasedBuckets implements CacheBackend {
  private readonly leases = new LRUCache<string, Lease>({ max: MAX_LEASES });
  /** Block key → the bucket key whose lease it guards: a block set here ends that lease at once. */
  private readonly guardedBy = new LRUCache<string, string>({ max: MAX_LEASES });
  private readonly pendingTallies = new Map<string, { count: number; ttlMs: number }>();
  private flushTimer?: NodeJS.Timeout;

  constructor(private readonly shared: CacheBackend) {}

  take(key: string, capacity: number, ratePerS: number, nowMs: number, options: TakeOptions = {}): MaybePromise<BucketState | Blocked> {
    const lease = this.leases.get(key);
    if (lease?.renewing) return lease.renewing.then(() => this.take(key, capacity, ratePerS, nowMs, options));
    if (lease && nowMs < lease.until) {
      if (lease.refusal) return this.answer(lease.refusal, options.tally);
      if (lease.tokens >= 1) return this.answer(this.spend(lease, capacity, ratePerS), options.tally);
    }
    return this.renew(key, lease, capacity, ratePerS, nowMs, options);
  }

  private renew(
    key: string,
    previous: Lease | undefined,
    capacity: number,
    ratePerS: number,
    nowMs: number,
    { tally, blockKey }: TakeOptions,
  ): MaybePromise<BucketState | Blocked> {
    const spent = previous && !previous.refusal ? previous : undefined;
    const size = nextLeaseSize(spent && { size: spent.size, spentAll: spent.tokens < 1 }, capacity);
    const giveBack = spent ? Math.floor(spent.tokens) : 0;
    this.flushTallies();
    const taken = this.shared.take(key, capacity, ratePerS, nowMs, { blockKey, want: size, giveBack });
    const settled = mapMaybe(taken, (state) => {
      const lease = this.store(key, size, state, nowMs, blockKey);
      return this.answer(lease.refusal ?? this.spend(lease, capacity, ratePerS), tally);
    });
    if (settled instanceof Promise) {
      // Requests for this key wait for the renewal instead of each making its own round trip.
      const waiting: Lease = { size, tokens: 0, sharedLeft: 0, until: 0, renewing: settled.catch(() => undefined) };
      this.leases.set(key, waiting);
      settled.catch(() => this.leases.get(key) === waiting && this.leases.delete(key));
    }
    return settled;
  }

  private store(key: string, size: number, state: BucketState | Blocked, nowMs: number, blockKey?: string): Lease {
    const refused = 'blockedUntil' in state || !state.allowed;
    const lease: Lease = refused
      ? { size, tokens: 0, sharedLeft: 0, until: nowMs + refusalMs(state, nowMs), refusal: state }
      : { size, tokens: state.granted, sharedLeft: state.remaining, until: nowMs + LEASE_MS };
    this.leases.set(key, lease);
    if (blockKey !== undefined) this.guardedBy.set(blockKey, key);
    return lease;
  }

  private spend(lease: Lease, capacity: number, ratePerS: number): BucketState {
    lease.tokens -= 1;
    return bucketState(1, lease.sharedLeft + lease.tokens, capacity, ratePerS);
  }

  private answer<T extends BucketState | Blocked>(state: T, tally: Tally | undefined): T {
    if (tally && !('blockedUntil' in state)) this.tally(state.allowed ? tally.allowed : tally.denied, tally.ttlMs);
    return state;
  }

  private tally(key: string, ttlMs: number): void {
    const pending = this.pendingTallies.get(key);
    if (pending) pending.count += 1;
    else this.pendingTallies.set(key, { count: 1, ttlMs });
    this.flushTimer ??= setTimeout(() => this.flushTallies(), LEASE_MS).unref();
  }

  private flushTallies(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    for (const [key, { count, ttlMs }] of this.pendingTallies) void this.shared.incr(key, ttlMs, count).catch(() => undefined);
    this.pendingTallies.clear();
  }

  async get<T>(key: string): Promise<T | undefined> {
    const pending = this.pendingTallies.get(key);
    if (pending) {
      this.pendingTallies.delete(key);
      await this.shared.incr(key, pending.ttlMs, pending.count);
    }
    return this.shared.get<T>(key);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.shared.set(key, value, ttlMs);
    // A block set here takes effect on this instance's next request, not at the lease's end.
    const guarded = this.guardedBy.get(key);
    if (guarded !== undefined) {
      this.guardedBy.delete(key);
      this.leases.delete(guarded);
    }
  }

  setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean> {
    return this.shared.setIfAbsent(key, value, ttlMs);
  }

  delete(key: string): Promise<void> {
    return this.shared.delete(key);
  }

  incr(key: string, ttlMs: number, by?: number): Promise<number> {
    return this.shared.incr(key, ttlMs, by);
  }

  acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean> {
    return this.shared.acquireSlot(key, holder, limit, leaseMs, nowMs);
  }

  renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void> {
    return this.shared.renewSlots(slots, leaseMs, nowMs);
  }

  releaseSlot(key: string, holder: string): Promise<void> {
    return this.shared.releaseSlot(key, holder);
  }

  countSlots(key: string, nowMs: number): Promise<number> {
    return this.shared.countSlots(key, nowMs);
  }
}

/** A refusal is repeated locally until a token could be there again, a block until it ends, neither past LEASE_MS. */
function refusalMs(state: BucketState | Blocked, nowMs: number): number {
  const untilFree = 'blockedUntil' in state ? state.blockedUntil - nowMs : state.retryAfterS * 1000;
  return Math.max(0, Math.min(LEASE_MS, untilFree));
}
