import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { uniqueName } from '../helpers/backends.js';
import { Instance, NGINX, REPO, startNginx, steadyLoad, untilReady } from '../helpers/deployment.js';
import { freePort } from '../helpers/ports.js';

/**
 * docs/deploy.md's rolling restart, followed as written: two svc instances on PostgreSQL and Redis
 * behind Debian's nginx configured with the docs' `upstream` block, restarted one at a time by
 * scripts/rolling-restart.sh under steady load of reads and writes with an Idempotency-Key: not one
 * request may fail. This test is the supervisor (what systemd's Restart= does): it starts an instance again
 * whenever one exits.
 */
const DRAIN_MS = '5000'; // the systemd template's SVC_SHUTDOWN_DRAIN_MS
const START_UP_S = 180;

if (process.env.CI === 'true' && !existsSync(NGINX)) throw new Error(`CI=true but ${NGINX} is missing (.ci/run installs Debian's nginx)`);
const runnable = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL && existsSync(NGINX));

describe.runIf(runnable)('rolling restart of two instances behind nginx (docs/deploy.md)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-rolling-'));
  const schema = uniqueName('rolling');
  let sim: Simulator;
  let nginx: ChildProcess;
  let instances: Instance[];
  let proxyPort: number;

  beforeAll(
    async () => {
      sim = await new Simulator(loadFixtures()).start();
      const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const env = {
        PATH: process.env.PATH!,
        HOST: '127.0.0.1',
        DATABASE_URL: `${process.env.DATABASE_URL}?options=-c%20search_path%3D${schema}`,
        REDIS_URL: process.env.REDIS_URL!,
        SVC_REDIS_PREFIX: `${schema}:`,
        SVC_SIGNING_KEY: signingKey,
        SVC_TRUST_PROXY: '1',
        SVC_SHUTDOWN_DRAIN_MS: DRAIN_MS,
        SVC_SCHEDULER: '0',
        SVC_STREAM_WATCH: 'off',
        SVC_RATE_ANON_PER_MIN: '1000000',
        LOG_LEVEL: 'warn',
        ...sim.env(),
      };
      const psql = spawnSync('psql', ['-q', process.env.DATABASE_URL!, '-c', `create schema ${schema}`], { encoding: 'utf8' });
      if (psql.status !== 0) throw new Error(`create schema: ${psql.stderr}`);
      const ports: [number, number] = [await freePort(), await freePort()];
      instances = ports.map((port) => new Instance(port, { ...env, SVC_DATA_DIR: join(dir, String(port)) }, join(dir, `${port}.pid`)));
      // One after the other: the first migrates the fresh schema.
      for (const instance of instances) {
        instance.start();
        await untilReady(`http://127.0.0.1:${instance.port}/readyz`, START_UP_S);
      }
      proxyPort = await freePort();
      nginx = startNginx(dir, proxyPort, ports);
      await untilReady(`http://127.0.0.1:${proxyPort}/readyz`, START_UP_S);
    },
    2 * START_UP_S * 1000 + 30_000,
  );

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all((instances ?? []).map((i) => i.stop()));
    await sim?.close();
    spawnSync('psql', ['-q', process.env.DATABASE_URL!, '-c', `drop schema if exists ${schema} cascade`]);
  });

  it(
    'scripts/rolling-restart.sh restarts both under steady load and not one request fails',
    async () => {
      const load = steadyLoad(`http://127.0.0.1:${proxyPort}`, 4);
      await expect.poll(() => load.answered(), { timeout: 30_000 }).toBeGreaterThan(40); // the load is flowing
      // systemctl restart returns once the old process has exited and the new one is started; so does this command.
      const restart = `pid=$(cat ${dir}/{}.pid); kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.1; done`;
      const script = spawn(
        'bash',
        ['scripts/rolling-restart.sh', '--restart', restart, '--timeout', String(START_UP_S), ...instances.map((i) => String(i.port))],
        {
          cwd: REPO,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      script.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      script.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const [code] = (await once(script, 'exit')) as [number];
      await load.stop();

      expect(code, output).toBe(0);
      for (const instance of instances) expect(instance.pids, instance.log).toHaveLength(2);
      expect(load.failures()).toEqual([]);
      expect(load.answered()).toBeGreaterThan(100);
      // Each instance answered, and nginx sent a request to the other instance when one refused the connection.
      const log = readFileSync(join(dir, 'access.log'), 'utf8');
      for (const instance of instances) expect(log).toContain(`127.0.0.1:${instance.port}`);
      console.log(
        `${load.answered()} requests answered; ${log.split('\n').filter((l) => l.includes(', ')).length} sent on to the other instance`,
      );
    },
    4 * START_UP_S * 1000,
  );
});
