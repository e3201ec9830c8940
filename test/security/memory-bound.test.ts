import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { MemoryCache } from '../../src/cache/memory.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Audit finding 2: without Redis the in-process cache kept every rate bucket, abuse counter and
 * per-minute figure for good (~500 bytes per client address). Every entry kind expires and goes;
 * a hard bound with LRU eviction caps the whole cache.
 */
const entriesOf = (cache: unknown) => (cache as { entries: { size: number } }).entries.size;
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('the in-process cache under many client addresses', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('drops the buckets, abuse counters and per-minute figures of 2,000 addresses once their TTLs pass', async () => {
    const before = entriesOf(t.deps.cache);
    for (let i = 0; i < 2000; i++) {
      // A 404 costs a bucket, a tally and an abuse counter per address.
      const res = await t.app.inject({ url: '/api/v1/no-such-route', remoteAddress: address(i) });
      expect(res.statusCode).toBe(404);
    }
    expect(entriesOf(t.deps.cache)).toBeGreaterThan(2 * 2000);
    // The longest-lived of them, the per-minute figures, live an hour and a minute.
    t.clock.advance(62 * 60_000);
    await t.app.inject({ url: '/healthz' });
    await t.app.inject({ url: '/api/v1/catalog', remoteAddress: address(99_999) });
    expect(entriesOf(t.deps.cache) - before).toBeLessThan(10);
  });
});

describe('MemoryCache', () => {
  it('holds at most its bound, evicting the least recently used, whatever the TTLs', async () => {
    const clock = new ManualClock();
    const cache = new MemoryCache(() => clock.now(), 100);
    await cache.set('hot', 'kept', 3_600_000);
    for (let i = 0; i < 1000; i++) {
      cache.take(`rate:ip:${address(i)}`, 60, 1, clock.now(), { blockKey: `block:${address(i)}` });
      await cache.incr(`abuse:client_error:${address(i)}`, 120_000);
      if (i % 10 === 0) expect(await cache.get('hot')).toBe('kept');
    }
    expect(entriesOf(cache)).toBeLessThanOrEqual(100);
    expect(await cache.get('hot')).toBe('kept');
  });

  it('a counter keeps the expiry it was created with; a bucket lives until it would be full again', async () => {
    const clock = new ManualClock();
    const cache = new MemoryCache(() => clock.now());
    expect(await cache.incr('n', 1000)).toBe(1);
    clock.advance(600);
    expect(await cache.incr('n', 1000)).toBe(2);
    clock.advance(500);
    expect(await cache.incr('n', 1000)).toBe(1);
    expect(cache.take('b', 2, 1, clock.now())).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(2999);
    expect(cache.take('b', 2, 1, clock.now())).toMatchObject({ allowed: true, remaining: 1 });
    clock.advance(3001);
    expect(await cache.get('b')).toBeUndefined();
  });

  it('stores JSON null as null', async () => {
    const cache = new MemoryCache(() => 0);
    await cache.set('k', null, 1000);
    expect(await cache.get('k')).toBeNull();
    expect(await cache.setIfAbsent('k', 1, 1000)).toBe(false);
  });
});
