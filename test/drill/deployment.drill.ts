import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { openStore, uniqueName } from '../helpers/backends.js';
import {
  CADDY,
  caddyLogLines,
  Instance,
  NGINX,
  REPO,
  sleep,
  startCaddy,
  startNginx,
  steadyLoad,
  untilReady,
  type Miss,
} from '../helpers/deployment.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { freePort } from '../helpers/ports.js';
import { PrivateRedis } from '../helpers/private-redis.js';

/**
 * The operator's drill (issue 33, docs/operations.md "The drill"): the compiled service as docs/deploy.md runs it,
 * two instances of two workers each on Postgres and Redis behind nginx and Caddy with the docs' configurations,
 * under steady reads and writes, through five faults in a row: a 15 s black hole between the instances and Postgres,
 * a Redis restart, kill -9 of a worker, and a rolling restart of both instances behind nginx, then behind Caddy.
 * Throughout, the deployment answers every request, each with 2xx or a documented 503 `store_unavailable` carrying
 * Retry-After, never a network error; after each fault writes succeed again. Run by `.ci/drill` after the build; prints a JSON summary.
 */
const START_UP_S = 120;
const BLACK_HOLE_MS = 15_000;

for (const balancer of [NGINX, CADDY])
  if (!existsSync(balancer)) throw new Error(`${balancer} is missing (.ci/run installs Debian's nginx and caddy)`);
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error('the drill needs DATABASE_URL and REDIS_URL');
if (!existsSync(join(REPO, 'dist/src/main.js'))) throw new Error('the drill runs the compiled service: npm run build first');

/** A front door of the deployment and the steady load through it. */
interface Door {
  name: 'nginx' | 'caddy';
  base: string;
  load?: ReturnType<typeof steadyLoad>;
}

/** A miss the docs promise during a database or Redis outage: 503 store_unavailable with Retry-After. */
const documented = (miss: Miss) => miss.status === 503 && miss.error === 'store_unavailable' && Boolean(miss.retryAfter);

describe('drill: Postgres black hole, Redis restart, kill -9 of a worker, rolling restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-drill-'));
  const schema = uniqueName('drill');
  const summary: Record<string, unknown> = {};
  let sim: Simulator;
  let redis: PrivateRedis;
  let postgres: FaultProxy;
  let balancers: ChildProcess[] = [];
  let instances: Instance[];
  /**
   * The deployment's front doors: nginx carries load through every fault; Caddy, whose active checks follow /readyz,
   * through the two store outages and its own rolling restart.
   */
  const via: Record<'nginx' | 'caddy', Door> = {
    nginx: { name: 'nginx', base: '' },
    caddy: { name: 'caddy', base: '' },
  };

  beforeAll(
    async () => {
      sim = await new Simulator(loadFixtures()).start();
      redis = await PrivateRedis.start();
      await (await openStore('postgres', schema)).close(); // created and migrated once, before either instance starts
      postgres = await FaultProxy.start(process.env.DATABASE_URL!);
      const databaseUrl = new URL(postgres.url);
      databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
      const env = {
        PATH: process.env.PATH!,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        SVC_WORKERS: '2',
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL: redis.url,
        SVC_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        SVC_TRUST_PROXY: '1',
        SVC_SHUTDOWN_DRAIN_MS: '5000',
        SVC_RATE_ANON_PER_MIN: '1000000',
        LOG_LEVEL: 'warn',
        ...sim.env(),
      };
      const ports: [number, number] = [await freePort(), await freePort()];
      instances = ports.map(
        (port) =>
          new Instance(port, { ...env, SVC_DATA_DIR: join(dir, String(port)) }, join(dir, `${port}.pid`), [
            '--max-semi-space-size=8',
            'dist/src/main.js',
          ]),
      );
      for (const instance of instances) instance.start();
      await Promise.all(instances.map((i) => untilReady(`http://127.0.0.1:${i.port}/readyz`, START_UP_S)));
      const [nginxPort, caddyPort] = [await freePort(), await freePort()];
      balancers = [startNginx(dir, nginxPort, ports), startCaddy(dir, caddyPort, ports)];
      via.nginx.base = `http://127.0.0.1:${nginxPort}`;
      via.caddy.base = `http://127.0.0.1:${caddyPort}`;
      await Promise.all([untilReady(`${via.nginx.base}/readyz`, 30), untilReady(`${via.caddy.base}/readyz`, 30)]);
      via.nginx.load = steadyLoad(via.nginx.base, 4);
      via.caddy.load = steadyLoad(via.caddy.base, 4);
      await sleep(2000);
    },
    2 * START_UP_S * 1000,
  );

  afterAll(async () => {
    await Promise.all([via.nginx.load?.stop(), via.caddy.load?.stop()]);
    for (const balancer of balancers) balancer.kill('SIGTERM');
    await Promise.all((instances ?? []).map((i) => i.stop()));
    await Promise.all([postgres?.close(), redis?.kill(), sim?.close()]);
    spawnSync('psql', ['-q', process.env.DATABASE_URL!, '-c', `drop schema if exists ${schema} cascade`]);
    console.log(JSON.stringify({ drill: summary }, null, 2));
  });

  /**
   * Runs `fault`, then checks what the load through each of `doors` met meanwhile, and that a write through the first
   * succeeds again within `recoverS`.
   */
  async function phase(name: string, fault: () => Promise<void>, allow: (miss: Miss) => boolean, doors = [via.nginx], recoverS = 30) {
    const from = Date.now();
    const answeredBefore = doors.map((door) => door.load!.answered());
    await fault();
    await untilWriteSucceeds(doors[0]!.base, recoverS);
    const seen = doors.map((door, i) => ({
      door,
      answered: door.load!.answered() - answeredBefore[i]!,
      misses: door.load!.misses.filter((m) => m.at >= from),
    }));
    summary[name] = {
      seconds: Math.round((Date.now() - from) / 100) / 10,
      ...Object.fromEntries(
        seen.map(({ door, answered, misses }) => [
          door.name,
          { answered, documented_503: misses.filter(documented).length, other_misses: misses.filter((m) => !allow(m)).length },
        ]),
      ),
    };
    for (const { door, misses } of seen) {
      const balancerErrors = door === via.caddy ? caddyLogLines(dir, '"level":"error"').slice(-5).join('\n') : '';
      expect(
        misses.filter((m) => !allow(m)),
        `through ${door.name}\n${balancerErrors}`,
      ).toEqual([]);
    }
    for (const instance of instances) expect(instance.child!.exitCode, instance.log.slice(-2000)).toBeNull();
  }

  async function untilWriteSucceeds(base: string, seconds: number) {
    const start = () =>
      fetch(`${base}/api/agent-session/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    for (const until = Date.now() + seconds * 1000; Date.now() < until; await sleep(250))
      if ((await start().catch(() => undefined))?.status === 200) return;
    throw new Error(`no write succeeded within ${seconds} s after the fault`);
  }

  it('a 15 s Postgres black hole: every answer through nginx and Caddy is 2xx or a documented 503, and writes come back', async () => {
    await phase(
      'postgres_black_hole_15s',
      async () => {
        postgres.blackHole();
        await sleep(BLACK_HOLE_MS);
        await postgres.heal();
      },
      documented,
      [via.nginx, via.caddy],
    );
  }, 120_000);

  it('a Redis restart: the same, and the instances take Redis back', async () => {
    await phase(
      'redis_restart',
      async () => {
        await redis.kill();
        await sleep(3000);
        await redis.start();
      },
      documented,
      [via.nginx, via.caddy],
    );
    await via.caddy.load!.stop(); // until Caddy's rolling restart: the docs' Caddyfile resends no POST after a kill -9
  }, 120_000);

  it('kill -9 of a worker: not one request misses, and the first process starts a replacement', async () => {
    const instance = instances[0]!;
    const victim = instance.workerPids()[0]!;
    let replacedMs = 0;
    await phase(
      'worker_kill_9',
      async () => {
        const killedAt = Date.now();
        process.kill(victim, 'SIGKILL');
        while (instance.workerPids().length < 2 || instance.workerPids().includes(victim)) await sleep(50);
        await untilReady(`http://127.0.0.1:${instance.port}/readyz`, 30);
        replacedMs = Date.now() - killedAt;
      },
      () => false,
    );
    summary.replacement_worker_ms = replacedMs;
  }, 120_000);

  /** scripts/rolling-restart.sh over both instances, as systemd would restart them. */
  async function rollingRestart() {
    const restart = `pid=$(cat ${dir}/{}.pid); kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.1; done`;
    const ports = instances.map((i) => String(i.port));
    const script = spawn('bash', ['scripts/rolling-restart.sh', '--restart', restart, '--timeout', String(START_UP_S), ...ports], {
      cwd: REPO,
      stdio: 'inherit',
    });
    const [code] = (await once(script, 'exit')) as [number];
    expect(code).toBe(0);
  }

  it(
    'a rolling restart of both instances behind nginx: not one request misses',
    async () => {
      await phase('rolling_restart_nginx', rollingRestart, () => false);
      for (const instance of instances) expect(instance.pids).toHaveLength(2);
    },
    4 * START_UP_S * 1000,
  );

  it(
    'a rolling restart behind Caddy, its health checks on /readyz as the docs set them: not one request misses',
    async () => {
      via.caddy.load = steadyLoad(via.caddy.base, 4);
      try {
        await phase('rolling_restart_caddy', rollingRestart, () => false, [via.caddy]);
      } finally {
        await via.caddy.load.stop();
      }
      for (const instance of instances) expect(instance.pids).toHaveLength(3);
    },
    4 * START_UP_S * 1000,
  );
});
