import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { takeToken } from '../../src/cache/token-bucket.js';
import { policyField, readRateLimit, serviceLimitField } from '../../src/protection/ratelimit-fields.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';

const ADMIN = 'admin-token-0123456789';
const env = { SVC_ADMIN_TOKEN: ADMIN, SVC_RATE_ANON_PER_MIN: '5', SVC_RATE_KEY_PER_MIN: '8', SVC_PAY_TO: PAY_TO };

describe('token bucket', () => {
  it('never allows more than capacity + rate × elapsed requests', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.double({ min: 0.1, max: 10, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 200 }),
        (capacity, rate, gaps) => {
          let bucket;
          let now = 0;
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            const step = takeToken(bucket, capacity, rate, now);
            bucket = step.bucket;
            if (step.state.allowed) allowed++;
            expect(step.state.remaining).toBeGreaterThanOrEqual(0);
          }
          expect(allowed).toBeLessThanOrEqual(capacity + Math.floor((rate * now) / 1000) + 1);
        },
      ),
    );
  });
});

describe('RateLimit fields', () => {
  it('read back what they write, and a malformed or absent field as nothing', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
    const n = fc.integer({ min: 0, max: 1e9 });
    fc.assert(
      fc.property(name, n, n, n, n, (policy, quota, windowS, remaining, resetS) => {
        const read = readRateLimit({
          'ratelimit-policy': policyField(policy, quota, windowS),
          ratelimit: serviceLimitField(policy, remaining, resetS),
          'retry-after': String(resetS),
        });
        expect(read).toEqual({ policy, quota, window_s: windowS, remaining, reset_s: resetS, retry_after_s: resetS });
      }),
    );
    expect(readRateLimit({ ratelimit: 'r=1' })).toBeUndefined();
    expect(readRateLimit({})).toBeUndefined();
    expect(readRateLimit({ ratelimit: '"a";t=3', 'ratelimit-policy': '"a";q=1' })).toBeUndefined();
    expect(readRateLimit({ ratelimit: '"a";r=3', 'ratelimit-policy': '"b";q=1;w=60' })).toEqual({ policy: 'a', remaining: 3 });
  });
});

describe.each(BUS_BACKENDS)('protection with the %s cache', (backend) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const redisPrefix = uniqueName('prot');
    a = await startTestApp({ redis: backend === 'redis', redisPrefix, env });
    b = backend === 'redis' ? await startTestApp({ redis: true, redisPrefix, sim: a.sim, env }) : a;
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  const get = (app: TestApp, url: string, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
    app.app.inject({ url, headers, remoteAddress: ip });

  it('limits anonymous clients per IP with RateLimit headers and a 429 JSON body; the limit holds across instances', async () => {
    const ip = `10.1.${backend === 'redis' ? 1 : 2}.1`;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(i % 2 ? b : a, '/api/v1/catalog', {}, ip));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // draft-ietf-httpapi-ratelimit-headers-12: the tier's policy, then what is left of it and when it is whole again.
    expect(answers[0]!.headers).toMatchObject({ 'ratelimit-policy': '"anonymous";q=5;w=60', ratelimit: '"anonymous";r=4;t=12' });
    expect(answers[0]!.headers['ratelimit-limit']).toBeUndefined();
    const limited = answers[5]!;
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('12');
    expect(limited.headers.ratelimit).toBe('"anonymous";r=0;t=12');
    expect(limited.json()).toMatchObject({
      error: 'rate_limited',
      details: { policy: 'anonymous', limit: 5, window_s: 60, retry_after_s: 12, reset_s: 60 },
    });
    // Health checks stay outside the limiter, with or without a query string.
    for (const url of ['/healthz', '/healthz?probe=1']) {
      const health = await get(a, url, {}, ip);
      expect(health.statusCode).toBe(200);
      expect(health.headers['ratelimit']).toBeUndefined();
    }
    a.clock.advance(12_000);
    expect((await get(a, '/api/v1/catalog', {}, ip)).statusCode).toBe(200);
  });

  it('API keys: created once by the admin, limited per key, revocable', async () => {
    expect((await a.app.inject({ method: 'POST', url: '/api/v1/admin/keys', payload: { name: 'x' } })).statusCode).toBe(403);
    const created = (
      await a.app.inject({
        method: 'POST',
        url: '/api/v1/admin/keys',
        headers: { authorization: `Bearer ${ADMIN}` },
        payload: { name: 'bot' },
        remoteAddress: '10.9.9.9',
      })
    ).json();
    expect(created).toMatchObject({ name: 'bot', tier: 'standard', key: expect.stringMatching(/^svc_key_/) });
    const listed = (
      await a.app.inject({ url: '/api/v1/admin/keys', headers: { authorization: `Bearer ${ADMIN}` }, remoteAddress: '10.9.9.8' })
    ).json();
    expect(JSON.stringify(listed)).not.toContain(created.key);
    const withKey = await get(a, '/api/v1/catalog', { 'x-api-key': created.key }, '10.2.0.1');
    expect(withKey.headers['ratelimit-policy']).toBe('"standard";q=8;w=60');
    expect((await get(a, '/api/v1/catalog', { 'x-api-key': 'svc_key_wrong' }, '10.2.0.2')).json()).toMatchObject({ error: 'unauthorized' });
    await a.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/keys/${created.id}`,
      headers: { authorization: `Bearer ${ADMIN}` },
      remoteAddress: '10.9.9.7',
    });
    expect((await get(a, '/api/v1/catalog', { 'x-api-key': created.key }, '10.2.0.3')).statusCode).toBe(401);
  });

  it('blocks an IP for 10 minutes after more than 10 invalid payments in a minute; signed stats count it', async () => {
    const t = await startTestApp({ redis: backend === 'redis', env: { SVC_PAY_TO: PAY_TO } });
    const ip = '10.3.0.1';
    const header = await paymentHeader({ nowS: Math.floor(t.clock.now() / 1000), amount: 1n });
    const pay = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/data/bundle',
        remoteAddress: ip,
        headers: { 'x-payment': header },
        payload: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] },
      });
    for (let i = 0; i < 11; i++) expect((await pay()).json().reason).toBe('invalid_exact_evm_payload_authorization_value');
    const blocked = await t.app.inject({ url: '/api/v1/catalog', remoteAddress: ip });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ error: 'blocked', details: { policy: 'blocked', limit: 0, window_s: 600, retry_after_s: 600 } });
    expect(blocked.headers).toMatchObject({
      'retry-after': '600',
      'ratelimit-policy': '"blocked";q=0;w=600',
      ratelimit: '"blocked";r=0;t=600',
    });
    // Credentials are looked up only after the block check: an unknown key from a blocked IP is still a 403, not a 401.
    const withKey = await t.app.inject({ url: '/api/v1/catalog', remoteAddress: ip, headers: { 'x-api-key': 'svc_key_unknown' } });
    expect(withKey.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/catalog', remoteAddress: '10.3.0.2' })).statusCode).toBe(200);
    t.clock.advance(600_000);
    expect((await t.app.inject({ url: '/api/v1/catalog', remoteAddress: ip })).statusCode).toBe(200);
    const stats = (await t.app.inject({ url: '/api/v1/protection/stats', remoteAddress: '10.7.7.7' })).json();
    expect(stats).toMatchObject({ window_s: 3600, abuse_invalid_payment: 11, blocks: 1 });
    expect(stats._receipt.v).toBe(1);
    await t.close();
  });
});
