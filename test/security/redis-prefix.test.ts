import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Audit finding 7: two deployments on one Redis, told apart by SVC_REDIS_PREFIX, never share state. */
// Needs Redis; in CI helpers/backends.ts fails the run when REDIS_URL is missing, so this never skips there.
describe.runIf(BUS_BACKENDS.includes('redis'))('two deployments on one Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { SVC_RATE_ANON_PER_MIN: '5' };
    a = await startTestApp({ redis: true, redisPrefix: uniqueName('deployA'), env });
    b = await startTestApp({ redis: true, redisPrefix: uniqueName('deployB'), sim: a.sim, env });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('keep separate rate limits, caches and bus channels', async () => {
    for (let i = 0; i < 5; i++) expect((await a.app.inject('/api/v1/catalog')).statusCode).toBe(200);
    expect((await a.app.inject('/api/v1/catalog')).statusCode).toBe(429);
    expect((await b.app.inject('/api/v1/catalog')).statusCode).toBe(200);

    await a.deps.cache.set('probe', 'from-a', 60_000);
    expect(await b.deps.cache.get('probe')).toBeUndefined();

    const heard: unknown[] = [];
    const stop = await b.deps.bus.subscribe('probe', (m) => heard.push(m));
    await a.deps.bus.publish('probe', { from: 'a' });
    // The sentinel: Redis delivers in the order it ran the PUBLISHes, so a's message would arrive before b's own.
    await b.deps.bus.publish('probe', { from: 'b' });
    await expect.poll(() => heard.length).toBeGreaterThan(0);
    expect(heard).toEqual([{ from: 'b' }]);
    await stop();
  });

  it('the prefix is on every key svc writes', async () => {
    const prefix = a.deps.config.redisPrefix;
    const keys = (await a.deps.redis!.call('KEYS', `${prefix}*`)) as string[];
    const foreign = (await a.deps.redis!.call('KEYS', `${b.deps.config.redisPrefix}*`)) as string[];
    expect(keys.length).toBeGreaterThan(0);
    expect(foreign.every((k) => !k.startsWith(prefix))).toBe(true);
  });
});
