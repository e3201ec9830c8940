import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS, uniqueName } from '../helpers/backends.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { REACH_FRESH_MS } from '../../src/health/peer-reach.js';

/**
 * Readiness and liveness with a shared database (src/health/peer-reach.ts). Before, /readyz and /healthz failed on every
 * instance while Postgres was away: a balancer with active checks (the docs' Caddy) took them all out and answered every
 * request, reads from the cache included, with its own empty 503 instead of svc's documented ones, and a supervisor
 * pointed at /healthz (Docker's HEALTHCHECK, a liveness probe) would restart them all. Now both fail for the database
 * only when another instance reaches it: two instances on one schema and one Redis prefix, A through a fault proxy.
 */
describe.runIf(SHARED_STORE_BACKENDS.length > 0 && process.env.REDIS_URL)('probes when the shared database is away', () => {
  let proxy: FaultProxy;
  let a: TestApp;
  let b: TestApp;
  const probe = async (t: TestApp, path: '/readyz' | '/healthz') => {
    const answer = await t.app.inject(path);
    return { status: answer.statusCode, ...answer.json<{ ok: boolean; store: string; store_outage?: string }>() };
  };
  const readiness = (t: TestApp) => probe(t, '/readyz');
  const liveness = (t: TestApp) => probe(t, '/healthz');
  const startSession = (t: TestApp) => t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'peers' } });

  beforeAll(async () => {
    proxy = await FaultProxy.start(process.env.DATABASE_URL!);
    const shared = { redis: true, pgSchema: uniqueName('ready'), redisPrefix: uniqueName('ready') };
    b = await startTestApp({ ...shared, postgres: true });
    a = await startTestApp({ ...shared, env: { DATABASE_URL: proxy.url }, sim: b.sim, clock: b.clock });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await proxy?.close();
  });

  it('away for this instance alone: it fails readiness once another instance has reached the database since', async () => {
    expect(await readiness(b)).toMatchObject({ status: 200, store: 'ok' }); // B reached it before A's outage began
    b.clock.advance(1000);
    await proxy.refuse();
    // Nobody has reached the database since A's failures began: A cannot tell its outage from everyone's.
    expect(await readiness(a)).toMatchObject({ status: 200, ok: true, store: 'unreachable', store_outage: 'shared' });
    b.clock.advance(1000);
    expect(await readiness(b)).toMatchObject({ status: 200, store: 'ok' });
    expect(await readiness(a)).toMatchObject({ status: 503, ok: false, store: 'unreachable', store_outage: 'this_instance' });
    expect(await liveness(a)).toMatchObject({ status: 503, ok: false, store: 'unreachable', store_outage: 'this_instance' });

    await proxy.heal();
    expect(await readiness(a)).toMatchObject({ status: 200, ok: true, store: 'ok' });
    expect((await readiness(a)).store_outage).toBeUndefined();
    expect(await liveness(a)).toMatchObject({ status: 200, ok: true, store: 'reachable' });
  });

  it('away for every instance: each stays ready and answers what needs the database with the documented 503', async () => {
    b.clock.advance(1000);
    expect(await readiness(b)).toMatchObject({ status: 200, store: 'ok' }); // a record from before the outage
    b.clock.advance(1000);
    await proxy.refuse();
    // B stands for the other instances: it is away for them too, so none records a reach.
    for (let probe = 0; probe < 3; probe++, b.clock.advance(2000))
      expect(await readiness(a)).toMatchObject({ status: 200, ok: true, store: 'unreachable', store_outage: 'shared' });
    expect(await liveness(a)).toMatchObject({ status: 200, ok: true, store: 'unreachable', store_outage: 'shared' });
    const refused = await startSession(a);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'store_unavailable' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await a.app.inject('/api/v1/catalog')).statusCode).toBe(200);
    await proxy.heal();
    expect(await readiness(a)).toMatchObject({ status: 200, store: 'ok' });
  });

  it('a black hole holds neither probe longer than SVC_READY_TIMEOUT_MS (1 s), though a query may wait 10 s', async () => {
    b.clock.advance(1000);
    proxy.blackHole();
    for (const check of [liveness, readiness]) {
      const startedAt = Date.now();
      expect(await check(a)).toMatchObject({ status: 200, store_outage: 'shared' });
      expect(Date.now() - startedAt).toBeLessThan(5000);
    }
    await proxy.heal();
  });

  it("a peer's reach older than the freshness window says nothing", async () => {
    b.clock.advance(1000);
    await proxy.refuse();
    expect((await readiness(a)).store_outage).toBe('shared'); // A's failures begin
    b.clock.advance(1000);
    expect((await readiness(b)).status).toBe(200); // B reaches it after that
    b.clock.advance(REACH_FRESH_MS + 1);
    expect(await readiness(a)).toMatchObject({ status: 200, store_outage: 'shared' });
    await proxy.heal();
  });
});
