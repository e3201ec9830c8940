import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import { join } from 'node:path';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import type { Store } from '../../src/store/db.js';
import { openStore, uniqueName } from '../helpers/backends.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { freePort } from '../helpers/ports.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * Issue 33, findings 1 and 2, on a real SVC_WORKERS=2 deployment on Postgres and Redis, its scheduler
 * running, Postgres behind a fault proxy. A Postgres fault used to end a worker (the scheduler's lease
 * query rejected with nothing to catch it), and a worker that died before it listened stopped every
 * worker and the primary: the deployment was gone within seconds of a database outage.
 */
const START_UP_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)('SVC_WORKERS=2 through database faults and dead workers', () => {
  let sim: Simulator;
  let proxy: FaultProxy;
  let primary: ChildProcess;
  /** The deployment's schema, read directly rather than through the proxy. */
  let store: Store;
  let base = '';
  let log = '';

  const workerPids = () => readFileSync(`/proc/${primary.pid}/task/${primary.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const until = async (what: string, done: () => boolean | Promise<boolean>, ms = 120_000) => {
    for (const deadline = Date.now() + ms; !(await done()); await sleep(200))
      if (Date.now() > deadline || primary.exitCode !== null) throw new Error(`${what} did not happen:\n${log.slice(-4000)}`);
  };
  // Every request is bounded (a hung one used to hold the case until vitest's timeout, with nothing to read): past
  // SVC_DB_QUERY_TIMEOUT_MS and then some, a request still unanswered fails the case with the service's log.
  const bounded = (path: string, init?: RequestInit, ms = 25_000) =>
    fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(ms) }).catch((error: Error) => {
      throw error.name === 'TimeoutError' ? new Error(`${path} went unanswered for ${ms} ms:\n${log.slice(-4000)}`) : error;
    });
  const startSession = () =>
    bounded('/api/agent-session/start', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label":"drill"}' });
  /** Every process of `pids` has written its heartbeat (every 5 s, src/lifecycle/cluster.ts) since `sinceMs`. */
  const beatSince = async (pids: string[], sinceMs: number) => {
    const beating = await store.db.selectFrom('instances').select('pid').where('heartbeat_at', '>', sinceMs).execute();
    return pids.every((pid) => beating.some((row) => String(row.pid) === pid));
  };
  const answers = async (path: string) => {
    const status = await bounded(path).then(
      (response) => response.status,
      (error: Error) => `${error.message} (${String((error.cause as Error | undefined)?.message)})`,
    );
    if (status !== 200) console.log(`${path}: ${status}`);
    return status === 200;
  };

  beforeAll(async () => {
    sim = await new Simulator(loadFixtures()).start();
    const schema = uniqueName('workers');
    store = await openStore('postgres', schema); // created and migrated here; the workers select it through the URL
    proxy = await FaultProxy.start(process.env.DATABASE_URL!);
    const databaseUrl = new URL(proxy.url);
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, [...entryArgs('src/main.ts')], {
      env: {
        ...process.env,
        ...sim.env(),
        SVC_WORKERS: '2',
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-workers-')),
        DATABASE_URL: databaseUrl.toString(),
        // On Postgres every instance signs with the cluster's key, given (svc refuses to make one per instance).
        SVC_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        SVC_REDIS_PREFIX: `${uniqueName('workers')}:`,
        SVC_SCHEDULER: '1',
        SVC_PUBLIC_URL: 'http://svc.test',
        SVC_RATE_ANON_PER_MIN: '1000000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    primary.stdout!.on('data', (d) => (log += d));
    primary.stderr!.on('data', (d) => (log += d));
    await until('start-up', () => log.includes('2 workers listening'), START_UP_MS);
  }, START_UP_MS + 10_000);

  // A case that times out skips its own heal(): heal here, so one failure cannot poison the cases after it.
  afterEach(() => proxy?.heal());

  afterAll(async () => {
    primary?.kill('SIGTERM');
    await proxy?.close();
    await sim?.close();
    await store?.close();
  });

  const faults: [string, () => unknown, number][] = [
    ['a 2 s delay', () => proxy.delay(2000), 4000],
    ['connection resets', () => proxy.reset(), 3000],
    ['a refusal', () => proxy.refuse(), 3000],
    ['a 5 s black hole', () => proxy.blackHole(), 5000],
  ];
  it.each(faults)(
    '%s: every process keeps running, requests get 200 or a documented 503, then recover',
    async (_name, fault, lastsMs) => {
      const workers = workerPids();
      await fault();
      const during = startSession(); // the scheduler polls every second meanwhile: its lease queries meet the fault
      expect(await answers('/api/v1/catalog')).toBe(true);
      await sleep(lastsMs);
      await proxy.heal();
      const healedAt = Date.now();
      const answer = await during;
      if (answer.status !== 200) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(await answer.json()).toMatchObject({ error: 'store_unavailable' });
      }
      await until('recovery', async () => (await startSession()).status === 200, 30_000);
      // Each worker's own background work meets the healed database: what the fault left to fail has failed by then.
      await until('a heartbeat of every worker after the fault', () => beatSince(workers, healedAt), 30_000);
      expect(primary.exitCode).toBeNull();
      expect(workerPids()).toEqual(workers);
    },
    60_000,
  );

  it('kill -9 of a worker under write load: every acknowledged write is kept and the port keeps answering', async () => {
    const session = (await (await startSession()).json()) as { session_id: string; session_token: string };
    const acknowledged = new Map<number, string>();
    let failed = 0;
    let loading = true;
    const stopAt = Date.now() + 150_000;
    const writer = async (w: number) => {
      for (let i = 0; loading && Date.now() < stopAt; i++) {
        const text = `writer ${w} event ${i}`;
        // Bounded too: under Node's round-robin a connection handed to the victim as it died hung until undici's 300 s
        // headers timeout (the next case checks that none hangs now). No fault is on the database here, so a write
        // takes milliseconds: 5 s is ample, and a failed write never holds the case for the 25 s of the fault cases.
        const response = await bounded(
          '/api/agent-session/event',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
            body: JSON.stringify({ session_id: session.session_id, kind: 'log', text }),
          },
          5_000,
        ).catch(() => undefined);
        if (response?.status === 200) acknowledged.set(((await response.json()) as { seq: number }).seq, text);
        else failed++;
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await until('writes acknowledged before the kill', () => acknowledged.size >= 8, 30_000);
    const [victim] = workerPids();
    const replaced = log.split('a replacement worker listens').length;
    const killedAt = Date.now();
    process.kill(Number(victim), 'SIGKILL');
    // The port is shared: the other worker accepts while the replacement starts. Connections the victim had accepted
    // are reset, like the requests it had in flight.
    const probes: { at: number; ok: boolean }[] = [];
    while (log.split('a replacement worker listens').length === replaced && Date.now() - killedAt < 120_000) {
      const at = Date.now();
      probes.push({ at, ok: await answers('/healthz') });
      await sleep(50);
    }
    loading = false;
    await Promise.all(writers);
    const settled = probes.filter((probe) => probe.at - killedAt > 500);
    expect(settled.length).toBeGreaterThan(3);
    expect(settled.every((probe) => probe.ok)).toBe(true);

    // Only the requests in flight on the killed worker may have gone unanswered: one per connection.
    expect(acknowledged.size).toBeGreaterThan(20);
    expect(failed).toBeLessThanOrEqual(4);
    expect(workerPids()).toHaveLength(2);
    const stream = await fetch(`${base}/api/agent-session/stream?session_id=${session.session_id}&last_event_id=0`);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const stored = new Map<number, string>();
    const last = Math.max(...acknowledged.keys());
    const readUntil = Date.now() + 30_000;
    for (let text = ''; !stored.has(last) && Date.now() < readUntil;) {
      const { value, done } = await Promise.race([reader.read(), sleep(1000).then(() => ({ value: '', done: false }))]);
      if (done) break;
      text += value;
      for (const match of text.matchAll(/^data: (\{.*\})$/gm)) {
        const event = JSON.parse(match[1]!) as { seq: number; text: string };
        stored.set(event.seq, event.text);
      }
    }
    await reader.cancel();
    for (const [seq, text] of acknowledged) expect(stored.get(seq)).toBe(text);
    const ms = /a replacement worker listens, (\d+) ms after it was started/.exec(log.split('\n').reverse().join('\n'))?.[1];
    console.log(`replacement worker listened ${ms} ms after it was started`);
  }, 400_000);

  it('kill -9 under clients that open a connection per request: every request is answered or reset, none left hanging', async () => {
    // Under Node's default round-robin the primary accepted each connection and handed it to a worker over IPC; one in
    // that hand-off as the worker died was neither answered nor reset (one hung request in each of three trials of this
    // load). The workers now accept from the shared socket (src/lifecycle/workers.ts).
    const outcomes = { answered: 0, reset: 0, hung: 0 };
    let loading = true;
    const oneRequest = () =>
      new Promise<keyof typeof outcomes>((resolve) => {
        const request = http.get(`${base}/healthz`, { agent: false, timeout: 5_000 }, (response) => {
          response.resume();
          response.on('end', () => resolve('answered'));
        });
        request.on('timeout', () => {
          request.destroy();
          resolve('hung');
        });
        request.on('error', () => resolve('reset'));
      });
    const client = async () => {
      while (loading) outcomes[await oneRequest()]++;
    };
    const clients = Array.from({ length: 32 }, client);
    await until('the load under way', () => outcomes.answered >= 200);
    const replaced = log.split('a replacement worker listens').length;
    process.kill(Number(workerPids()[0]), 'SIGKILL');
    await until('a replacement worker', () => log.split('a replacement worker listens').length > replaced);
    loading = false;
    await Promise.all(clients);
    expect(outcomes.answered).toBeGreaterThan(100);
    expect(outcomes.hung, JSON.stringify(outcomes)).toBe(0);
  }, 200_000);

  it('a replacement that dies before it listens (Postgres refused) is retried with backoff while the other worker serves', async () => {
    const replacements = log.split('a replacement worker listens').length;
    await proxy.refuse();
    const [victim, survivor] = workerPids();
    process.kill(Number(victim), 'SIGKILL');
    // The replacement's start-up check finds no database and exits 20; before, that stopped every worker and the primary.
    await until('two replacements dying', () => log.split('before it listened; starting another').length > 2, 150_000);
    // Retried with a growing delay (docs/operations.md): the victim's own replacement starts at once after a healthy
    // run, then 1 s, 2 s, 4 s … The first delay logged here is 1 s, or 2 s when the victim itself had served under 30 s
    // (the replacement from the case before): a worker that dies young is no reason to restart at once.
    const delays = [...log.matchAll(/a worker exited \(20\) before it listened; starting another in (\d+) ms/g)].map((m) => Number(m[1]));
    expect(delays.length).toBeGreaterThanOrEqual(2);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
    expect(primary.exitCode).toBeNull();
    expect(workerPids()).toContain(survivor);
    expect(await answers('/api/v1/catalog')).toBe(true);
    const refused = await startSession();
    expect(refused.status).toBe(503);

    await proxy.heal();
    await until('the replacement listening', () => log.split('a replacement worker listens').length > replacements, 150_000);
    expect(workerPids()).toHaveLength(2);
    expect((await startSession()).status).toBe(200);
  }, 400_000);
});
