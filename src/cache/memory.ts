import type { Blocked, BucketState, Cache, SlotRef, TakeOptions } from './index.js';
import { takeToken, type Bucket } from './token-bucket.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** In-process cache with expiry and a size bound (oldest-inserted evicted first). */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  /** key → holder → lease expiry (Unix ms). */
  private readonly slots = new Map<string, Map<string, number>>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries = 50_000,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    return this.peek(key) as T | undefined;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  async setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean> {
    if (this.peek(key) !== undefined) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async incr(key: string, ttlMs: number, by = 1): Promise<number> {
    return this.add(key, ttlMs, by);
  }

  take(key: string, capacity: number, ratePerS: number, nowMs: number, { tally, blockKey }: TakeOptions = {}): BucketState | Blocked {
    const blockedUntil = blockKey === undefined ? undefined : (this.peek(blockKey) as number | undefined);
    if (blockedUntil !== undefined && blockedUntil > nowMs) return { blockedUntil };
    const { bucket, state } = takeToken(this.peek(key) as Bucket | undefined, capacity, ratePerS, nowMs);
    this.entries.set(key, { value: bucket, expiresAt: this.now() + (capacity / ratePerS) * 1000 + 1000 });
    if (tally) this.add(state.allowed ? tally.allowed : tally.denied, tally.ttlMs, 1);
    return state;
  }

  async acquireSlot(key: string, holder: string, limit: number, leaseMs: number, nowMs: number): Promise<boolean> {
    const held = this.liveSlots(key, nowMs);
    if (!held.has(holder) && held.size >= limit) return false;
    held.set(holder, nowMs + leaseMs);
    this.slots.set(key, held);
    return true;
  }

  async renewSlots(slots: readonly SlotRef[], leaseMs: number, nowMs: number): Promise<void> {
    for (const { key, holder } of slots) {
      const held = this.slots.get(key);
      if (held?.has(holder)) held.set(holder, nowMs + leaseMs);
    }
  }

  async releaseSlot(key: string, holder: string): Promise<void> {
    const held = this.slots.get(key);
    held?.delete(holder);
    if (held?.size === 0) this.slots.delete(key);
  }

  async countSlots(key: string, nowMs: number): Promise<number> {
    return this.liveSlots(key, nowMs).size;
  }

  private liveSlots(key: string, nowMs: number): Map<string, number> {
    const held = this.slots.get(key) ?? new Map<string, number>();
    for (const [holder, expiresAt] of held) if (expiresAt <= nowMs) held.delete(holder);
    return held;
  }

  private add(key: string, ttlMs: number, by: number): number {
    const entry = this.entries.get(key);
    const live = entry !== undefined && entry.expiresAt > this.now();
    const value = (live ? (entry.value as number) : 0) + by;
    this.entries.set(key, { value, expiresAt: live ? entry.expiresAt : this.now() + ttlMs });
    return value;
  }

  private peek(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
}
