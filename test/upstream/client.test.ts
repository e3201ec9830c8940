import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Type from 'typebox';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('upstream client', () => {
  it('accepts a deadline that is not a whole millisecond (regression: AbortSignal.timeout threw)', async () => {
    const http = t.deps.upstream.host('open-meteo');
    const body = await http.json<{ latitude: number }>('/v1/forecast', Type.Object({ latitude: Type.Number() }), {
      deadline: Date.now() + 1500.75,
    });
    expect(body.latitude).toBeCloseTo(40.71, 1);
  });

  it('puts each host key where the host wants it, with the host scheme for authorization headers', async () => {
    const deadline = Date.now() + 1000;
    await t.deps.upstream.host('courtlistener').text('/api/rest/v4/search/', { deadline });
    await t.deps.upstream.host('courtlistener-anon').text('/api/rest/v4/search/', { deadline });
    await t.deps.upstream.host('coingecko').text('/api/v3/simple/price', { deadline });
    expect(t.sim.requests('courtlistener').at(-1)!.headers.authorization).toBe('Token sim-key');
    expect(t.sim.requests('courtlistener-anon').at(-1)!.headers.authorization).toBeUndefined();
    expect(t.sim.requests('coingecko').at(-1)!.headers['x-cg-demo-api-key']).toBe('sim-key');
  });

  it('reads a 403 with an exhausted X-RateLimit quota as rate limiting, with the wait until the reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 42;
    t.sim.fault('github', { kind: 'status', status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } });
    const error = await t.deps.upstream
      .host('github')
      .text('/search/repositories', { deadline: Date.now() + 1000 })
      .catch((e: unknown) => e);
    t.sim.fault('github', { kind: 'status', status: 403 });
    const plain = await t.deps.upstream
      .host('github')
      .text('/search/repositories', { deadline: Date.now() + 1000 })
      .catch((e: { reason: string }) => e.reason);
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(error).toMatchObject({ reason: 'upstream_rate_limited', info: { status: 403 } });
    expect((error as { info: { retryAfterS: number } }).info.retryAfterS).toBeGreaterThanOrEqual(41);
    expect((error as { info: { retryAfterS: number } }).info.retryAfterS).toBeLessThanOrEqual(42);
    expect(plain).toBe('upstream_error');
  });

  it('reports the 500 it got, not a timeout, when the deadline cuts its retry short (regression: CI saw upstream_timeout)', async () => {
    t.sim.fault('open-meteo', { kind: 'status', status: 500 });
    const before = t.sim.requests('open-meteo').length;
    const call = t.deps.upstream
      .host('open-meteo')
      .text('/v1/forecast', { deadline: Date.now() + 1500 })
      .catch((e: unknown) => e);
    await expect.poll(() => t.sim.requests('open-meteo').length, { interval: 5 }).toBeGreaterThan(before);
    t.sim.fault('open-meteo', { kind: 'hang' });
    const error = await call;
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(t.sim.requests('open-meteo').length).toBeGreaterThan(before + 1);
    expect(error).toMatchObject({ reason: 'upstream_error' });
  });

  it('takes a 4xx as the answer to this request: no retry, and never a reason to open the circuit', async () => {
    t.sim.fault('open-meteo', { kind: 'status', status: 404 });
    const http = t.deps.upstream.host('open-meteo');
    const before = t.sim.requests('open-meteo').length;
    const reasons = [];
    for (let i = 0; i < 8; i++)
      reasons.push(await http.text('/v1/forecast', { deadline: Date.now() + 1000 }).catch((e: { reason: string }) => e.reason));
    t.sim.clearFaults();
    expect(reasons).toEqual(Array(8).fill('upstream_error'));
    expect(t.sim.requests('open-meteo').length - before).toBe(8);
    expect(t.deps.upstream.circuitState('open-meteo')).toBe('closed');
    t.deps.upstream.resetBreakers();
  });

  it('opens the circuit after repeated failures and says so', async () => {
    t.sim.fault('open-meteo', { kind: 'status', status: 500 });
    const http = t.deps.upstream.host('open-meteo');
    const call = () => http.text('/v1/forecast', { deadline: Date.now() + 1000 }).catch((e: { reason: string }) => e.reason);
    const reasons = [];
    for (let i = 0; i < 6; i++) reasons.push(await call());
    expect(reasons.slice(0, 5)).toEqual(Array(5).fill('upstream_error'));
    expect(reasons[5]).toBe('upstream_unavailable');
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
  });
});
