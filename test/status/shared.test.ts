import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';
import type { StatusReport } from '../../src/status/service.js';

const status = async (t: TestApp) => (await t.app.inject({ url: '/api/v1/status' })).json<StatusReport>();
const typeOf = (report: StatusReport, type: string) => report.types.find((x) => x.type === type)!;
const hostOf = (report: StatusReport, name: string) => report.upstreams.find((x) => x.name === name)!;

describe.each(BUS_BACKENDS.filter((b) => b === 'redis'))('upstream health across instances (%s)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const redisPrefix = uniqueName('health');
    a = await startTestApp({ redis: true, redisPrefix });
    b = await startTestApp({ redis: true, redisPrefix, sim: a.sim });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('records in process on the request path and shares the figures only when an instance flushes', async () => {
    await a.app.inject({ url: '/api/data/preview?type=crypto-price&q=bitcoin&max_age=0' });
    expect(await a.deps.redis!.zcard('health:instances')).toBe(0);
    expect(typeOf(await status(b), 'crypto-price').state).toBe('not_called');

    await a.deps.status.flush();
    b.clock.advance(5_000); // b re-reads the shared figures at most every 5 s
    const seen = await status(b);
    // Their figures merge through Redis; `instances` counts the live instances on this one's database (test/status/instances.test.ts).
    expect(seen.instances).toBe(1);
    expect(typeOf(seen, 'crypto-price')).toMatchObject({ state: 'working', source: 'coingecko', results: { ok: 1 } });
    expect(hostOf(seen, 'coingecko')).toMatchObject({ calls: 1, success_rate: 1 });
  });

  it('adds up the calls of every instance and keeps the newest last result', async () => {
    a.sim.fault('coingecko', { kind: 'status', status: 429 });
    await b.app.inject({ url: '/api/data/preview?type=crypto-price&q=ethereum&max_age=0' });
    a.sim.clearFaults();
    b.clock.advance(1_000);
    await b.deps.status.flush();
    a.clock.advance(10_000);
    const merged = await status(a);
    expect(merged.instances).toBe(1); // two instances merged, on two databases
    expect(hostOf(merged, 'coingecko')).toMatchObject({ calls: 2, outcomes: { ok: 1, rate_limited: 1 }, success_rate: 0.5 });
    expect(typeOf(merged, 'crypto-price')).toMatchObject({ state: 'degraded', source: 'kraken', results: { ok: 1, degraded: 1 } });
  });
});
