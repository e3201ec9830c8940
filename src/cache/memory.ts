import type { BucketState, Cache } from './index.js';
import { takeToken, type Bucket } from '../protection/token-bucket.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** In-process cache with expiry and a size bound (oldest-inserted evicted first). */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();

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
    const entry = this.entries.get(key);
    const live = entry !== undefined && entry.expiresAt > this.now();
    const value = (live ? (entry.value as number) : 0) + by;
    this.entries.set(key, { value, expiresAt: live ? entry.expiresAt : this.now() + ttlMs });
    return value;
  }

  async take(key: string, capacity: number, ratePerS: number, nowMs: number): Promise<BucketState> {
    const { bucket, state } = takeToken(this.peek(key) as Bucket | undefined, capacity, ratePerS, nowMs);
    this.entries.set(key, { value: bucket, expiresAt: this.now() + (capacity / ratePerS) * 1000 + 1000 });
    return state;
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
