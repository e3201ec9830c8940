import { LRUCache } from 'lru-cache';
import type { Blocked, BucketState, CacheBackend, SlotRef, TakeOptions } from './index.js';
import { takeToken, type Bucket } from './token-bucket.js';

/** Entries kept at most: past it the least recently used goes, whatever its TTL (a client rotating addresses cannot grow it). */
export const MEMORY_CACHE_MAX_ENTRIES = 50_000;
/** Expired entries are dropped on read and, at least this often, all at once (so entries nobody reads again do not linger). */
const PURGE_EVERY_MS = 60_000;
/** lru-cache holds no null; JSON null is stored as this. */
const NULL = Symbol('null');

/**
 * In-process cache (lru-cache): every entry has a TTL, the whole cache a hard bound with LRU
 * eviction. TTLs run on the injected clock, so tests expire entries without sleeping.
 */
export class MemoryCache implements CacheBackend {
  private readonly entries: LRUCache<string, NonNullable<unknown>>;
  /** key → its holders' lease expiries (Unix ms) and when its expired holders were last dropped; a key goes with its last holder. */
  private readonly slots = new Map<string, { holders: Map<string, number>; sweptAt: number }>();
  private nextPurgeAt: number;

  constructor(
    private readonly now: () => number,
    maxEntries = MEMORY_CACHE_MAX_ENTRIES,
  ) {
    // ttlResolution 0: read the clock on every check (lru-cache would otherwise cache it with a timer per call).
    this.entries = new LRUCache({ max: maxEntries, ttlResolution: 0, perf: { now } });
    this.nextPurgeAt = now() + PURGE_EVERY_MS;
  }

  /** Entries held now, expired ones not yet purged included. */
  get size(): number {
    return this.entries.size;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.peek(key) as T | undefined;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.put(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean> {
    if (this.peek(key) !== undefined) return false;
    this.put(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async incr(key: string, ttlMs: number, by = 1): Promise<number> {
    return this.add(key, ttlMs, by);
  }

  take(
    key: string,
    capacity: number,
    ratePerS: number,
    nowMs: number,
    { tally, blockKey, want, giveBack }: TakeOptions = {},
  ): BucketState | Blocked {
    const blockedUntil = blockKey === undefined ? undefined : (this.peek(blockKey) as number | undefined);
    if (blockedUntil !== undefined && blockedUntil > nowMs) return { blockedUntil };
    const { bucket, state } = takeToken(this.peek(key) as Bucket | undefined, capacity, ratePerS, nowMs, want, giveBack);
    // A bucket unused for as long as it takes to refill is full again: it need not be kept longer.
    this.put(key, bucket, (capacity / ratePerS) * 1000 + 1000);
    if (tally) this.add(state.allowed ? tally.allowed : tally.denied, tally.ttlMs, 1);
    return state;
  }

  async acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean> {
    const slot = this.slots.get(key) ?? { holders: new Map<string, number>(), sweptAt: nowMs };
    const isNew = !slot.holders.has(holder);
    if (isNew && slot.holders.size >= limit && this.sweep(slot, nowMs) >= limit) return false;
    slot.holders.set(holder, nowMs + leaseMs);
    this.slots.set(key, slot);
    return true;
  }

  async renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void> {
    for (const { key, holder } of slots) {
      const holders = this.slots.get(key)?.holders;
      if (holders?.has(holder)) holders.set(holder, nowMs + leaseMs);
    }
  }

  async releaseSlot(key: string, holder: string): Promise<void> {
    const slot = this.slots.get(key);
    slot?.holders.delete(holder);
    if (slot?.holders.size === 0) this.slots.delete(key);
  }

  /** Exact to the second: expired holders (a release that never came) are dropped at most once a second. */
  async countSlots(key: string, nowMs: number): Promise<number> {
    const slot = this.slots.get(key);
    if (!slot) return 0;
    if (nowMs - slot.sweptAt < 1000) return slot.holders.size;
    if (this.sweep(slot, nowMs) === 0) this.slots.delete(key);
    return slot.holders.size;
  }

  /**
   * Drops a key's expired holders and returns how many are left. Run only when a key is full or a
   * count is due, not on every acquire: a sweep is linear in the holders, and 10,000 watchers of one
   * session made connecting quadratic.
   */
  private sweep(slot: { holders: Map<string, number>; sweptAt: number }, nowMs: number): number {
    for (const [holder, expiresAt] of slot.holders) if (expiresAt <= nowMs) slot.holders.delete(holder);
    slot.sweptAt = nowMs;
    return slot.holders.size;
  }

  /** A counter keeps the expiry it was created with (as PEXPIRE NX does on Redis). */
  private add(key: string, ttlMs: number, by: number): number {
    this.purgeWhenDue();
    const value = ((this.peek(key) as number | undefined) ?? 0) + by;
    this.entries.set(key, value, { ttl: ttlMs, noUpdateTTL: true });
    return value;
  }

  private put(key: string, value: unknown, ttlMs: number): void {
    this.purgeWhenDue();
    this.entries.set(key, value ?? NULL, { ttl: Math.max(1, ttlMs) });
  }

  private peek(key: string): unknown {
    const value = this.entries.get(key);
    return value === NULL ? null : value;
  }

  private purgeWhenDue(): void {
    const now = this.now();
    if (now < this.nextPurgeAt) return;
    this.nextPurgeAt = now + PURGE_EVERY_MS;
    this.entries.purgeStale();
  }
}
