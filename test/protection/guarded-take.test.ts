import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createCache } from '../../src/cache/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';

describe.each(BUS_BACKENDS)('token bucket guarded by a block key on the %s cache', (backend) => {
  const clock = new ManualClock();
  const redis = backend === 'redis' ? new Redis(process.env.REDIS_URL!, { keyPrefix: `${uniqueName('take')}:` }) : undefined;
  const cache = createCache(redis, () => clock.now());
  const tally = { allowed: 'allowed', denied: 'denied', ttlMs: 60_000 };
  afterAll(() => redis?.disconnect());

  it('refuses without taking a token or counting while the block key holds a future time, then takes again', async () => {
    const now = clock.now();
    await cache.set('block:1.2.3.4', now + 5_000, 5_000);
    const take = () => cache.take('rate:ip:1.2.3.4', 3, 3 / 60, clock.now(), { tally, blockKey: 'block:1.2.3.4' });
    expect(await take()).toEqual({ blockedUntil: now + 5_000 });
    expect(await cache.get('allowed')).toBeUndefined();
    clock.advance(5_000);
    expect(await take()).toMatchObject({ allowed: true, remaining: 2 });
    expect(await take()).toMatchObject({ allowed: true, remaining: 1 });
    expect(await cache.get('allowed')).toBe(2);
  });

  it('ignores a block key that holds nothing or a past time', async () => {
    await cache.set('block:past', clock.now() - 1, 60_000);
    expect(await cache.take('rate:a', 2, 1, clock.now(), { blockKey: 'block:past' })).toMatchObject({ allowed: true, remaining: 1 });
    expect(await cache.take('rate:b', 2, 1, clock.now(), { blockKey: 'block:none' })).toMatchObject({ allowed: true, remaining: 1 });
  });
});

it('the in-memory cache answers a take synchronously (no microtask hop per request)', () => {
  const cache = createCache(undefined, () => Date.now());
  const state = cache.take('rate:sync', 2, 1, Date.now(), { blockKey: 'block:none' });
  expect(state).not.toBeInstanceOf(Promise);
  expect(state).toMatchObject({ allowed: true, remaining: 1 });
});
