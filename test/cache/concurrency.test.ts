import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createCache, type CacheBackend } from '../../src/cache/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { ConcurrencyLimiter, LEASE_MS } from '../../src/cache/concurrency.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';

describe.each(BUS_BACKENDS)('concurrency limiter on the %s cache', (backend) => {
  const prefix = `${uniqueName('slots')}:`;
  const connections: Redis[] = [];
  const clock = new ManualClock();
  let memory: CacheBackend | undefined;
  /** A second call is a second instance with Redis, the same process cache in memory. */
  const instance = () => {
    if (backend === 'memory') return new ConcurrencyLimiter((memory ??= createCache(undefined, () => clock.now())), clock);
    const redis = new Redis(process.env.REDIS_URL!, { keyPrefix: prefix });
    connections.push(redis);
    return new ConcurrencyLimiter(
      createCache(redis, () => clock.now()),
      clock,
    );
  };
  const a = instance();
  const b = instance();
  afterAll(() => {
    a.close();
    b.close();
    for (const r of connections) r.disconnect();
  });

  it('enforces one cap across instances and frees a slot on release', async () => {
    const cap = { key: 'ip:1', limit: 2 };
    const first = await a.acquire([cap]);
    const second = await b.acquire([cap]);
    expect('lease' in first && 'lease' in second).toBe(true);
    expect(await a.acquire([cap])).toEqual({ full: cap });
    expect(await b.acquire([cap])).toEqual({ full: cap });
    expect(await b.count('ip:1')).toBe(2);
    if ('lease' in first) await first.lease.release();
    expect(await a.count('ip:1')).toBe(1);
    const third = await b.acquire([cap]);
    expect('lease' in third).toBe(true);
  });

  it('takes every cap or none', async () => {
    const ip = { key: 'ip:2', limit: 5 };
    const session = { key: 'session:2', limit: 1 };
    expect('lease' in (await a.acquire([ip, session]))).toBe(true);
    expect(await b.acquire([ip, session])).toEqual({ full: session });
    expect(await a.count('ip:2')).toBe(1);
  });

  it('lets the leases of a crashed holder expire, and keeps renewed ones', async () => {
    const cap = { key: 'ip:3', limit: 1 };
    const crashed = instance();
    expect('lease' in (await crashed.acquire([cap]))).toBe(true);
    crashed.close(); // never renews or releases again
    const alive = await a.acquire([{ key: 'ip:3b', limit: 1 }]);
    expect('lease' in alive).toBe(true);
    clock.advance(LEASE_MS / 2);
    await a.renewAll();
    clock.advance(LEASE_MS / 2 + 1);
    expect(await b.count('ip:3')).toBe(0);
    expect('lease' in (await b.acquire([cap]))).toBe(true);
    expect(await b.acquire([{ key: 'ip:3b', limit: 1 }])).toEqual({ full: { key: 'ip:3b', limit: 1 } });
  });
});
