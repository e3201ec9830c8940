import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/payments/idempotency.js';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { startTestApp } from '../helpers/app.js';
import { STORE_BACKENDS, openStore, uniqueName } from '../helpers/backends.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { freePort } from '../helpers/ports.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * Issue 35, item 4: kill -9 between the charge and the answer. A real svc process (the entry point, transpiled) is told
 * by SVC_TEST_CRASH_AT=after_charge to SIGKILL itself right after it recorded a paid bundle's charge (the facilitator
 * settled it), before the answer is kept or sent. Once that run's lease is over, another instance on the same database
 * takes the request over: ten concurrent retries of the same payment get one answer, and nothing is settled again.
 */
const START_UP_MS = 150_000;
const body = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };

describe.each(STORE_BACKENDS)('a paid request whose process is killed after the charge, on %s', (backend) => {
  const facilitator = new FakeFacilitator();
  let sim: Simulator;
  let child: ChildProcess;
  let log = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  const pgSchema = uniqueName('crash');
  let base = '';
  let facilitatorUrl = '';

  beforeAll(async () => {
    sim = await new Simulator(loadFixtures()).start();
    facilitatorUrl = await facilitator.start();
    let databaseUrl = '';
    if (backend === 'postgres') {
      // The schema is created and migrated here; the child selects it through its URL.
      await (await openStore('postgres', pgSchema)).close();
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${pgSchema}`);
      databaseUrl = url.toString();
    }
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [...entryArgs('src/main.ts')], {
      env: {
        ...process.env,
        ...sim.env(),
        PORT: String(port),
        HOST: '127.0.0.1',
        SVC_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        // On Postgres every instance is given the cluster's key (an instance refuses to make one of its own there).
        SVC_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
        REDIS_URL: '',
        SVC_SCHEDULER: '0',
        SVC_STREAM_WATCH: 'off',
        SVC_PUBLIC_URL: 'http://svc.test',
        SVC_RATE_ANON_PER_MIN: '1000000',
        SVC_PAY_TO: PAY_TO,
        X402_FACILITATOR_URL: facilitatorUrl,
        PAYMENT_SETTLE: 'sync',
        SVC_TEST_CRASH_AT: 'after_charge',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    for (const until = Date.now() + START_UP_MS; ;) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`svc did not start:\n${log}`);
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, START_UP_MS + 10_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await facilitator.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is answered by the next instance without a second charge: ten retries, one answer', { timeout: 120_000 }, async () => {
    const header = await paymentHeader({ nowS: Math.floor(Date.now() / 1000), amount: 1000n });
    const send = () =>
      fetch(`${base}/api/data/bundle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payment': header },
        body: JSON.stringify(body),
      });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await expect(send()).rejects.toThrow(); // the connection dies with the process: the answer is hidden from the agent
    expect(await exited).toBe('SIGKILL');
    expect(facilitator.settled).toHaveLength(1);

    // The next instance, once the dead run's lease is over (its clock past it), on the same database.
    const clock = new ManualClock(Date.now() + IDEMPOTENCY_LEASE_MS + 1000);
    const next = await startTestApp({
      sim,
      clock,
      postgres: backend === 'postgres',
      pgSchema,
      env: { SVC_DATA_DIR: dataDir, SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: facilitatorUrl, PAYMENT_SETTLE: 'sync' },
    });
    try {
      const retry = () => next.app.inject({ method: 'POST', url: '/api/data/bundle', payload: body, headers: { 'x-payment': header } });
      const answers = await Promise.all(Array.from({ length: 10 }, retry));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.body).toBe(answers[0]!.body);
        expect(answer.headers['x-payment-response']).toBe(answers[0]!.headers['x-payment-response']);
      }
      expect(answers[0]!.json()).toMatchObject({ payment: { method: 'x402', charged: true }, results: [{ ok: true }] });
      expect(JSON.parse(Buffer.from(String(answers[0]!.headers['x-payment-response']), 'base64').toString())).toMatchObject({
        success: true,
      });
      expect(facilitator.settled).toHaveLength(1);
      expect((await retry()).body).toBe(answers[0]!.body);
    } finally {
      await next.close();
    }
  });
});
