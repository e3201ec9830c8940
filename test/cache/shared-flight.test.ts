import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/memory.js';
import { sharedFlight, type Flight } from '../../src/cache/shared-flight.js';

/**
 * Single-flight across instances (src/cache/shared-flight.ts) on one shared cache: one caller leads, the others take
 * its value; a missing, dead or slow leader, or a cache that cannot lease, makes a caller fetch itself. The
 * two-instance test on Postgres + Redis (test/sources/corroboration-instances.test.ts) shows it through HTTP.
 */
const cache = () => new MemoryCache(() => Date.now());
const soon = (ms: number) => Date.now() + ms;

/** The caller's `release`, asserting that it leads (fetches). */
function lead(flight: Flight<string>): () => Promise<void> {
  if (!('fetch' in flight)) throw new Error(`expected to lead, got ${JSON.stringify(flight)}`);
  return flight.release;
}

describe('sharedFlight', () => {
  it('the first caller leads; a second waits and gets the value the leader stores, without fetching', async () => {
    const shared = cache();
    const release = lead(await sharedFlight<string>(shared, 'k', 1000, soon(500)));
    const follower = sharedFlight<string>(shared, 'k', 1000, soon(500));
    setTimeout(() => void shared.set('k', 'fetched once', 10_000).then(release), 30);
    expect(await follower).toEqual({ value: 'fetched once' });
  });

  it('a leader that releases without storing (its write failed) hands the lease to the next caller', async () => {
    const shared = cache();
    const release = lead(await sharedFlight<string>(shared, 'k', 1000, soon(500)));
    const follower = sharedFlight<string>(shared, 'k', 1000, soon(500));
    setTimeout(() => void release(), 20);
    const started = Date.now();
    expect(await follower).toMatchObject({ fetch: true });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a leader that never answers (it died, its lease held) is waited for only until waitUntilMs', async () => {
    const shared = cache();
    lead(await sharedFlight<string>(shared, 'k', 60_000, soon(500)));
    const started = Date.now();
    expect(await sharedFlight<string>(shared, 'k', 60_000, soon(100))).toMatchObject({ fetch: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a cache that cannot lease (Redis away) lets the caller fetch at once', async () => {
    const away = Object.assign(cache(), { setIfAbsent: () => Promise.reject(new Error('store_unavailable')) });
    expect(await sharedFlight<string>(away, 'k', 1000, soon(500))).toMatchObject({ fetch: true });
  });
});
