import { setTimeout as sleep } from 'node:timers/promises';
import type { Cache } from './index.js';

/** The first wait for another instance's value, doubled each round up to the last: a fetch lands within a round. */
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 40;

/** What `sharedFlight` decided: the value another instance stored, or that this caller fetches (then calls `release`). */
export type Flight<T> = { value: T } | { fetch: true; release: () => Promise<void> };

const NO_LEASE = async () => undefined;

/**
 * Single-flight across instances sharing a cache (Redis): the first caller of `key` takes a short lease (SET NX PX,
 * `leaseMs`: as long as its fetch may take) and fetches; the others wait for the value it stores under `key`, checking
 * every few milliseconds. A waiter fetches itself when the lease is gone without a value (the holder failed to store
 * it, or died and its lease expired) or when `waitUntilMs` (epoch ms) passes first (the holder is slow). The holder
 * stores the value, then calls `release`. When the cache cannot take a lease (Redis away), the caller fetches.
 */
export async function sharedFlight<T>(cache: Cache, key: string, leaseMs: number, waitUntilMs: number): Promise<Flight<T>> {
  const leaseKey = `${key}#lease`;
  for (let pause = FIRST_POLL_MS; ; pause = Math.min(2 * pause, MAX_POLL_MS)) {
    const leased = await cache.setIfAbsent(leaseKey, 1, Math.max(1, leaseMs)).catch(() => undefined);
    if (leased === undefined) return { fetch: true, release: NO_LEASE };
    if (leased) {
      // The previous holder may have stored its value and released between this caller's last look and its lease.
      const landed = await cache.get<T>(key);
      const release = () => cache.delete(leaseKey).catch(() => undefined);
      if (landed === undefined) return { fetch: true, release };
      await release();
      return { value: landed };
    }
    if (Date.now() + pause > waitUntilMs) return { fetch: true, release: NO_LEASE };
    await sleep(pause);
    const value = await cache.get<T>(key);
    if (value !== undefined) return { value };
  }
}
