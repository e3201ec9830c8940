import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PrivateRedis } from '../helpers/private-redis.js';
import { openStream } from '../agent-session/sse.js';
import { ApiError } from '../../src/core/errors.js';

/**
 * Audit finding 3: every request waited on Redis without a deadline (a paused Redis stalled every
 * request for as long as it was paused) and a Redis that was down answered 500 on nearly every
 * route while /healthz said ok. Now every command has a deadline, rate limits fall back to the
 * in-process limiter (logged once, counted), single-use claims fail closed with 503, /readyz reports it (without failing: Redis is shared),
 * and the bus reconnects. A private redis-server is paused and killed under load.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

describe('Redis paused, then killed, under load', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  const logs: string[] = [];
  const outageLines = () => logs.filter((line) => line.includes('Redis is unavailable'));

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    t = await startTestApp({
      env: { REDIS_URL: redis.url, SVC_REDIS_TIMEOUT_MS: '100', SVC_READY_TIMEOUT_MS: '1000', SVC_RATE_ANON_PER_MIN: '30' },
      logStream: { write: (line) => void logs.push(line) },
    });
  });
  afterAll(async () => {
    await t.close();
    await redis.kill();
  });

  const load = (n: number, prefix: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => t.app.inject({ url: '/api/v1/catalog', remoteAddress: `${prefix}.${i + 1}` })));
  /** Requests until the breaker's probe finds Redis again. */
  const untilAvailable = () =>
    eventually(async () => {
      await t.app.inject({ url: '/api/v1/catalog', remoteAddress: '10.99.0.1' });
      return t.deps.redisAvailability!.available;
    }, 'Redis is available again');

  it('paused: every request is answered, rate limits hold in-process, /readyz says so, one log line, then it recovers', async () => {
    expect((await t.app.inject('/readyz')).json()).toMatchObject({ ok: true, store: 'ok', redis: 'ok' });
    redis.pause();
    const answers = await load(60, '10.1.0');
    expect(answers.map((r) => r.statusCode)).toEqual(Array(60).fill(200));

    // One address past its 30 a minute is refused by the in-process limiter.
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await t.app.inject({ url: '/api/v1/catalog', remoteAddress: '10.2.0.1' })).statusCode);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses.slice(30)).toContain(429);

    // Redis is every instance's: its outage is reported, but failing readiness everywhere at once would take the
    // whole deployment out of its balancer while each instance still serves (issue 33, finding 4).
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ ok: true, store: 'ok', redis: expect.stringMatching(/^(timeout|unreachable)$/) });
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    const metrics = (await t.app.inject('/metrics')).body;
    expect(metric(metrics, 'svc_redis_available')).toBe(0);
    expect(metric(metrics, 'svc_redis_fallbacks_total{operation="take"}')).toBeGreaterThan(60);
    expect(outageLines()).toHaveLength(1);

    redis.resume();
    await untilAvailable();
    expect((await t.app.inject('/readyz')).json()).toMatchObject({ ok: true, redis: 'ok' });
    expect(metric((await t.app.inject('/metrics')).body, 'svc_redis_available')).toBe(1);
    expect(logs.some((line) => line.includes('Redis answers again'))).toBe(true);
  });

  it('a single-use claim fails closed while Redis is away: 503 store_unavailable with a retry time', async () => {
    redis.pause();
    await load(5, '10.3.0');
    const claim = await t.deps.cache.setIfAbsent('claim:x', 1, 60_000).catch((error: unknown) => error);
    expect(claim).toBeInstanceOf(ApiError);
    expect(claim).toMatchObject({ status: 503, code: 'store_unavailable', details: { retry_after_s: 1 } });
    redis.resume();
    await untilAvailable();
    expect(await t.deps.cache.setIfAbsent('claim:x', 1, 60_000)).toBe(true);
    expect(await t.deps.cache.setIfAbsent('claim:x', 1, 60_000)).toBe(false);
  });

  it('killed and restarted: no 5xx while it is gone, and the session fan-out resumes once it is back', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const started = (await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: {} })).json();
    const auth = { authorization: `Bearer ${started.session_token}` };
    const post = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/agent-session/event',
        headers: auth,
        payload: { session_id: started.session_id, kind: 'log', text },
      });
    const watcher = await openStream(`${base}/api/agent-session/stream?session_id=${started.session_id}`);
    try {
      expect((await post('before')).statusCode).toBe(200);
      await watcher.waitForEvents(1);

      await redis.kill();
      const answers = await load(40, '10.4.0');
      expect(answers.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
      expect((await post('during')).statusCode).toBe(200);
      expect((await t.app.inject('/readyz')).json()).toMatchObject({ ok: true, redis: expect.stringMatching(/^(timeout|unreachable)$/) });

      await redis.start();
      await untilAvailable();
      // The bus's own connection subscribes again once it has reconnected.
      const probe = new Redis(redis.url);
      await eventually(async () => (await probe.pubsub('CHANNELS', '*')).length > 0, 'the bus subscribed again');
      probe.disconnect();
      expect((await post('after')).statusCode).toBe(200);
      const events = await watcher.waitForEvents(3);
      expect(events.map((e) => [e.id, e.data.text])).toEqual([
        ['1', 'before'],
        ['2', 'during'],
        ['3', 'after'],
      ]);
    } finally {
      await watcher.close();
    }
  });
});
