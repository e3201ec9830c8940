import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { LEASE_MS, LeasedBuckets, maxLease, nextLeaseSize } from '../../src/cache/leased-buckets.js';
import { MemoryCache } from '../../src/cache/memory.js';
import { createCache, type BucketState, type CacheBackend } from '../../src/cache/index.js';
import { uniqueName } from '../helpers/backends.js';

/** Instances leasing from one shared bucket; a step is (instance, ms since the previous step). */
const steps = fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 0, max: 300 })), { maxLength: 150 });

describe('lease math', () => {
  it('a lease starts at one token, doubles while spent in full, halves otherwise, and stays within [1, maxLease]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.array(fc.boolean(), { maxLength: 40 }), (capacity, spentAll) => {
        let size = nextLeaseSize(undefined, capacity);
        expect(size).toBe(1);
        for (const spent of spentAll) {
          const next = nextLeaseSize({ size, spentAll: spent }, capacity);
          expect(next).toBeGreaterThanOrEqual(1);
          expect(next).toBeLessThanOrEqual(maxLease(capacity));
          expect(spent ? next >= size || next === maxLease(capacity) : next <= size).toBe(true);
          size = next;
        }
        expect(maxLease(capacity)).toBeLessThanOrEqual(Math.max(1, capacity / 10));
      }),
    );
  });

  it('instances leasing from one bucket never allow more together than the bucket alone, and refuse only when it was empty', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0.1, max: 20, noNaN: true }),
        fc.integer({ min: 1, max: 4 }),
        steps,
        (capacity, ratePerS, instances, arrivals) => {
          const now = { ms: 0 };
          const shared = new MemoryCache(() => now.ms);
          const leased = Array.from({ length: instances }, () => new LeasedBuckets(shared));
          let allowed = 0;
          for (const [which, gap] of arrivals) {
            now.ms += gap;
            const state = leased[which % instances]!.take('rate:x', capacity, ratePerS, now.ms) as BucketState;
            if (state.allowed) allowed++;
            else {
              // Refused: the shared bucket had no whole token when asked; a refusal is repeated for ≤ LEASE_MS,
              // in which it refills and other instances may give back the ≤ maxLease − 1 tokens of their leases.
              const bucket = shared.take('rate:x', capacity, ratePerS, now.ms, { want: 0 }) as BucketState;
              const refill = (ratePerS * LEASE_MS) / 1000;
              expect(bucket.remaining).toBeLessThanOrEqual(refill + 1 + (instances - 1) * (maxLease(capacity) - 1));
            }
          }
          expect(allowed).toBeLessThanOrEqual(capacity + Math.floor((ratePerS * now.ms) / 1000));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a busy client costs one shared take per lease, not per request', () => {
    const now = { ms: 0 };
    const shared = new MemoryCache(() => now.ms);
    let sharedTakes = 0;
    const counting: CacheBackend = Object.assign(Object.create(shared) as MemoryCache, {
      take: (...args: Parameters<MemoryCache['take']>) => (sharedTakes++, shared.take(...args)),
    });
    const leased = new LeasedBuckets(counting);
    for (let i = 0; i < 5000; i++) expect((leased.take('rate:busy', 100_000, 1000, now.ms) as BucketState).allowed).toBe(true);
    expect(sharedTakes).toBeLessThan(5000 / 100);
  });

  it('a block set through the leasing cache ends its lease at once', async () => {
    const now = { ms: 0 };
    const leased = new LeasedBuckets(new MemoryCache(() => now.ms));
    const take = () => leased.take('rate:ip:b', 1000, 100, now.ms, { blockKey: 'block:b' });
    for (let i = 0; i < 10; i++) expect(take()).toMatchObject({ allowed: true });
    await leased.set('block:b', now.ms + 60_000, 60_000);
    expect(take()).toEqual({ blockedUntil: 60_000 });
  });
});

describe.runIf(process.env.REDIS_URL)('two instances leasing from one bucket on Redis', () => {
  const prefix = `${uniqueName('lease')}:`;
  const connections = [new Redis(process.env.REDIS_URL!, { keyPrefix: prefix }), new Redis(process.env.REDIS_URL!, { keyPrefix: prefix })];
  const [a, b] = connections.map((redis) => createCache(redis, () => 0));
  afterAll(() => connections.forEach((redis) => redis.disconnect()));

  it('hold the shared limit: of 2,000 requests alternating between them, at most the capacity pass and at most 2 × (maxLease − 1) fewer', async () => {
    const capacity = 600;
    const tally = { allowed: 'stats:allowed', denied: 'stats:denied', ttlMs: 60_000 };
    let allowed = 0;
    // No refill (same instant): exactly `capacity` tokens exist for both instances together.
    for (let i = 0; i < 2000; i++) {
      const state = (await (i % 2 ? b! : a!).take('rate:ip:shared', capacity, capacity / 60, 1_000_000, { tally })) as BucketState;
      if (state.allowed) allowed++;
    }
    expect(allowed).toBeLessThanOrEqual(capacity);
    expect(allowed).toBeGreaterThanOrEqual(capacity - 2 * (maxLease(capacity) - 1));
    // Each instance's tallies reach the shared counters (read here through each instance: pending counts are flushed first).
    const counted = (await a!.get<number>('stats:allowed'))! + ((await b!.get<number>('stats:allowed')) ?? 0);
    expect(counted).toBeGreaterThanOrEqual(allowed);
    expect((await a!.get<number>('stats:allowed'))! + ((await a!.get<number>('stats:denied')) ?? 0)).toBeGreaterThan(0);
  });
});
