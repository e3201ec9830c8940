import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator, loadFixtures } from '../../src/demo/simulator.js';
import { uniqueName } from '../helpers/backends.js';
import { freePort } from '../helpers/ports.js';

/**
 * docs/deploy.md's rolling restart, followed as written: two svc instances on PostgreSQL and Redis
 * behind Debian's nginx configured with the docs' `upstream` block, restarted one at a time by
 * scripts/rolling-restart.sh under steady load of reads and writes with an Idempotency-Key: not one
 * request may fail. This test is the supervisor (what systemd's Restart= does): it starts an instance again
 * whenever one exits.
 */
const REPO = new URL('../..', import.meta.url).pathname;
const NGINX = '/usr/sbin/nginx';
const DRAIN_MS = '5000'; // the systemd template's SVC_SHUTDOWN_DRAIN_MS
const START_UP_S = 180;

if (process.env.CI === 'true' && !existsSync(NGINX)) throw new Error(`CI=true but ${NGINX} is missing (.ci/run installs Debian's nginx)`);
const runnable = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL && existsSync(NGINX));

/** The docs' nginx configuration with the test's ports, plain HTTP on loopback, its files under `dir`. */
function nginxConfigFromDocs(dir: string, listen: number, ports: [number, number]): string {
  const docs = readFileSync(join(REPO, 'docs/deploy.md'), 'utf8');
  const block = /```text\n# \/etc\/nginx\/conf\.d\/svc\.conf\n([\s\S]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/deploy.md has no nginx block starting with "# /etc/nginx/conf.d/svc.conf"');
  const site = block
    .replace('127.0.0.1:8081', `127.0.0.1:${ports[0]}`)
    .replace('127.0.0.1:8082', `127.0.0.1:${ports[1]}`)
    .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${listen};`)
    .replace(/^\s*ssl_certificate.*$/gm, '');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
  return `pid ${dir}/nginx.pid; error_log ${dir}/error.log warn; events {}
http { log_format upstreams '$status $upstream_addr $request'; access_log ${dir}/access.log upstreams; ${temp}
${site}
}`;
}

class Instance {
  child?: ChildProcess;
  log = '';
  readonly pids: number[] = [];
  private stopped = false;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly pidFile: string,
  ) {}

  start(): void {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: REPO,
      env: { ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (this.log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.log += d.toString()));
    child.on('exit', () => !this.stopped && this.start());
    this.child = child;
    this.pids.push(child.pid!);
    writeFileSync(this.pidFile, String(child.pid));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.child && this.child.exitCode === null) {
      this.child.kill('SIGKILL');
      await once(this.child, 'exit');
    }
  }
}

async function untilReady(url: string): Promise<void> {
  for (const until = Date.now() + START_UP_S * 1000; Date.now() < until; await new Promise((r) => setTimeout(r, 500)))
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  throw new Error(`${url} did not answer 200 within ${START_UP_S} s`);
}

/** Requests through the proxy, `loops` at a time, until `stop()`: reads and non-idempotent writes. */
function steadyLoad(base: string, loops: number) {
  const failures: string[] = [];
  let answered = 0;
  let running = true;
  const call = async (label: string, path: string, init?: RequestInit) => {
    try {
      const response = await fetch(`${base}${path}`, init);
      const body = await response.text();
      if (!response.ok) failures.push(`${label}: ${response.status} ${body.slice(0, 200)}`);
      answered++;
      return response.ok ? (JSON.parse(body) as Record<string, string>) : undefined;
    } catch (error) {
      failures.push(`${label}: ${(error as Error).message}`);
    }
  };
  // Every POST carries an Idempotency-Key, as docs/deploy.md asks of a POST nginx may send again: a connection
  // that reaches the stopping instance's listener as it closes is reset after nginx has sent the request.
  const json = (body: object, token?: string): RequestInit => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const loop = async () => {
    while (running) {
      await call('GET catalog', '/api/v1/catalog');
      await call('GET preview', '/api/data/preview?type=forex&q=EUR:USD');
      const session = await call('POST start', '/api/agent-session/start', json({ label: 'rolling restart' }));
      if (session)
        await call(
          'POST event',
          '/api/agent-session/event',
          json({ session_id: session.session_id, kind: 'click' }, session.session_token),
        );
    }
  };
  const all = Array.from({ length: loops }, loop);
  return {
    failures,
    answered: () => answered,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}

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
        await untilReady(`http://127.0.0.1:${instance.port}/readyz`);
      }
      proxyPort = await freePort();
      writeFileSync(join(dir, 'nginx.conf'), nginxConfigFromDocs(dir, proxyPort, ports));
      nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
      await untilReady(`http://127.0.0.1:${proxyPort}/readyz`);
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
      await new Promise((r) => setTimeout(r, 2000));
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
      expect(load.failures).toEqual([]);
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
