import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { SHARED_STORE_BACKENDS } from '../helpers/backends.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { isDatabaseOutage } from '../../src/store/db.js';

/**
 * The database going away at runtime used to answer 500 `internal_error`; Postgres dropping an idle
 * pooled connection emitted an `error` event nobody handled; and the scheduler's lease query, failing,
 * rejected with nothing to catch it. Each ends a Node process. The app reaches Postgres through a
 * fault proxy: every request is answered (503 `store_unavailable` with Retry-After where the database
 * is needed), every background job survives, and all of it recovers when the proxy heals.
 */
describe.runIf(SHARED_STORE_BACKENDS.length > 0)('Postgres faults at runtime', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  const logs: { msg: string; job?: string }[] = [];
  const DAY_MS = 86_400_000;

  beforeAll(async () => {
    proxy = await FaultProxy.start(process.env.DATABASE_URL!);
    t = await startTestApp({ env: { DATABASE_URL: proxy.url }, logStream: { write: (line) => void logs.push(JSON.parse(line)) } });
    await t.app.scheduler.tick(); // every job once while the database answers
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  const startSession = () => t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'outage' } });
  const failuresOf = async (job: string) => {
    const metrics = (await t.app.inject('/metrics')).body;
    return Number(new RegExp(`svc_background_errors_total\\{job="${job}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };
  const linesAbout = (job: string, words: string) => logs.filter((l) => l.job === job && l.msg.includes(words)).length;

  it('answers 503 store_unavailable with Retry-After while it is away, keeps serving what needs no database, and recovers', async () => {
    expect((await startSession()).statusCode).toBe(200);
    await proxy.refuse(); // the pool's idle connections die: an unhandled pool error would end this process here
    // The instance has seen it. It stays ready: no other instance reaches the database (test/security/readiness-peers.test.ts).
    await expect.poll(async () => (await t.app.inject('/readyz')).json().store).not.toBe('ok');
    expect((await t.app.inject('/readyz')).json()).toMatchObject({ ok: true, store_outage: 'shared' });

    const refused = await startSession();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'store_unavailable', details: { retry_after_s: 5 } });
    expect(refused.headers['retry-after']).toBe('5');
    expect((await t.app.inject('/api/v1/catalog')).statusCode).toBe(200);

    await proxy.heal();
    expect((await startSession()).statusCode).toBe(200);
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
  });

  it('every background job survives it: counted each try, logged once when it fails and once when it recovers, retried with backoff', async () => {
    const jobs = t.app.scheduler.jobs.map((job) => job.name);
    expect(jobs.length).toBeGreaterThan(10);
    await proxy.refuse();
    t.clock.advance(DAY_MS); // every job is due
    await t.app.scheduler.tick(); // before: the first lease query rejected out of tick
    for (const job of jobs) expect(await failuresOf(job), job).toBe(1);

    t.clock.advance(500); // within the first back-off (1 s): nothing is tried
    await t.app.scheduler.tick();
    t.clock.advance(500);
    await t.app.scheduler.tick(); // 1 s after: every job tries again, and fails again
    for (const job of jobs) {
      expect(await failuresOf(job), job).toBe(2);
      expect(linesAbout(job, 'failed; retrying with backoff'), job).toBe(1);
    }

    await proxy.heal();
    t.clock.advance(2000);
    await t.app.scheduler.tick();
    for (const job of jobs) {
      expect(await failuresOf(job), job).toBe(2);
      expect(linesAbout(job, 'recovered'), job).toBe(1);
    }
  }, 120_000);

  const faults: [string, () => unknown, number][] = [
    ['a 2 s delay', () => proxy.delay(2000), 3000],
    ['connection resets', () => proxy.reset(), 500],
    ['a 5 s black hole', () => proxy.blackHole(), 5000],
  ];
  it.each(faults)(
    'under %s requests are answered (200, or 503 store_unavailable) and the jobs go on',
    async (_name, fault, lastsMs) => {
      await fault();
      t.clock.advance(DAY_MS);
      const during = Promise.all([startSession(), t.app.scheduler.tick()]);
      await new Promise((resolve) => setTimeout(resolve, lastsMs));
      await proxy.heal();
      const [answer] = await during;
      if (answer.statusCode !== 200) {
        expect(answer.statusCode).toBe(503);
        expect(answer.json()).toMatchObject({ error: 'store_unavailable' });
        expect(answer.headers['retry-after']).toBe('5');
      }
      t.clock.advance(DAY_MS);
      await t.app.scheduler.tick();
      expect((await startSession()).statusCode).toBe(200);
      expect((await t.app.inject('/readyz')).statusCode).toBe(200);
    },
    120_000,
  );
});

/**
 * A query sent into a network black hole used to wait for as long as TCP keepalive took to notice (hours): the request
 * with it, and inside a transaction the rows it had locked (the transparency log's size row: every logged answer after
 * it waited too). The catalog waited on the database for the instance count. Now an unanswered query ends its
 * connection after SVC_DB_QUERY_TIMEOUT_MS. The hole stays open while the requests are answered: they cannot have
 * waited for it to close.
 */
describe.runIf(SHARED_STORE_BACKENDS.length > 0)('a Postgres black hole longer than SVC_DB_QUERY_TIMEOUT_MS', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  beforeAll(async () => {
    proxy = await FaultProxy.start(process.env.DATABASE_URL!);
    t = await startTestApp({ env: { DATABASE_URL: proxy.url, SVC_DB_QUERY_TIMEOUT_MS: '1500' } });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });
  const startSession = () => t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'hole' } });
  const loggedAnswer = (q: string) => t.app.inject(`/api/v1/entity/resolve?q=${q}`);

  it('a write and a logged answer get 503 store_unavailable, the catalog 200, and nothing stays locked once it heals', async () => {
    // Open connections the pool keeps idle: in the hole, the requests' queries go out on them and are never answered.
    for (const opened of await Promise.all(Array.from({ length: 8 }, startSession))) expect(opened.statusCode).toBe(200);
    expect((await loggedAnswer('bitcoin')).statusCode).toBe(200);
    proxy.blackHole();
    t.clock.advance(86_400_000); // the status figures are stale: the catalog must not wait on the database for them
    const [write, logged, catalog] = await Promise.all([startSession(), loggedAnswer('ethereum'), t.app.inject('/api/v1/catalog')]);
    for (const answer of [write, logged]) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ error: 'store_unavailable' });
    }
    expect(catalog.statusCode).toBe(200);

    await proxy.heal();
    expect((await startSession()).statusCode).toBe(200);
    expect((await loggedAnswer('solana')).statusCode).toBe(200); // the log's size row is not held by a cut transaction
  }, 60_000);
});

describe('what counts as the database being away', () => {
  it('connection failures of either driver, not other errors', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    for (const away of [
      coded('ECONNREFUSED'),
      coded('57P01'), // admin_shutdown
      coded('08006'), // connection_failure
      coded('SQLITE_BUSY'),
      coded('SQLITE_FULL'),
      coded('SQLITE_IOERR_WRITE'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ])
      expect(isDatabaseOutage(away)).toBe(true);
    for (const fault of [coded('23505'), coded('42P01'), coded('SQLITE_CONSTRAINT'), new TypeError('x is undefined'), undefined, 'text'])
      expect(isDatabaseOutage(fault)).toBe(false);
  });
});
