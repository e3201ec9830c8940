import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryArgs } from './entry.js';

/**
 * Pieces of a production-like deployment for the lifecycle suites and the drill: svc instances started as
 * processes and restarted by a supervisor (what systemd's Restart= does), nginx configured from docs/deploy.md,
 * and steady client load through it.
 */
export const REPO = new URL('../..', import.meta.url).pathname;
export const NGINX = '/usr/sbin/nginx';
export const CADDY = '/usr/bin/caddy';

/** The docs' nginx configuration with the test's ports, plain HTTP on loopback, its files under `dir`. */
export function nginxConfigFromDocs(dir: string, listen: number, ports: [number, number]): string {
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

/** nginx in the foreground with the docs' configuration in front of `ports`, listening on `listen`. */
export function startNginx(dir: string, listen: number, ports: [number, number]): ChildProcess {
  writeFileSync(join(dir, 'nginx.conf'), nginxConfigFromDocs(dir, listen, ports));
  return spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
}

/**
 * The docs' Caddyfile for several instances, with the test's ports, plain HTTP on loopback, no admin endpoint,
 * and Caddy's own log (health checks, "no upstreams available") written to `log`.
 */
export function caddyfileFromDocs(listen: number, ports: [number, number], log: string): string {
  const docs = readFileSync(join(REPO, 'docs/deploy.md'), 'utf8');
  const block =
    /```text\n# \/etc\/caddy\/Caddyfile\n(svc\.example\.org \{\n[^`]*?reverse_proxy 127\.0\.0\.1:8081 127\.0\.0\.1:8082[\s\S]*?)```/.exec(
      docs,
    )?.[1];
  if (!block) throw new Error('docs/deploy.md has no Caddyfile block with "reverse_proxy 127.0.0.1:8081 127.0.0.1:8082"');
  const site = block
    .replace('svc.example.org {', `http://127.0.0.1:${listen} {`)
    .replace('127.0.0.1:8081', `127.0.0.1:${ports[0]}`)
    .replace('127.0.0.1:8082', `127.0.0.1:${ports[1]}`);
  return `{\n\tadmin off\n\tlog {\n\t\toutput file ${log}\n\t}\n}\n${site}`;
}

/** Caddy in the foreground with the docs' Caddyfile in front of `ports`, listening on `listen`; its log is `dir`/caddy.log. */
export function startCaddy(dir: string, listen: number, ports: [number, number]): ChildProcess {
  writeFileSync(join(dir, 'Caddyfile'), caddyfileFromDocs(listen, ports, caddyLog(dir)));
  return spawn(CADDY, ['run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: 'ignore',
  });
}

const caddyLog = (dir: string) => join(dir, 'caddy.log');

/** The lines of Caddy's log in `dir` whose message contains `text` (for barriers and failure messages). */
export function caddyLogLines(dir: string, text: string): string[] {
  if (!existsSync(caddyLog(dir))) return [];
  return readFileSync(caddyLog(dir), 'utf8')
    .split('\n')
    .filter((line) => line.includes(text));
}

/** One svc instance, started again whenever it exits until `stop()`; its pid is kept in `pidFile` for scripts. */
export class Instance {
  child?: ChildProcess;
  log = '';
  readonly pids: number[] = [];
  private stopped = false;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly pidFile: string,
    private readonly entry: string[] = [...entryArgs('src/main.ts')],
  ) {}

  start(): void {
    const child = spawn(process.execPath, this.entry, {
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

  /** The pids of this instance's workers (SVC_WORKERS > 1), children of its first process. */
  workerPids(): number[] {
    const pid = this.child!.pid!;
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.child && this.child.exitCode === null) {
      this.child.kill('SIGKILL');
      await once(this.child, 'exit');
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `url` answers 200, polling every 200 ms, or throws after `seconds`. */
export async function untilReady(url: string, seconds: number): Promise<void> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; await sleep(200))
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  throw new Error(`${url} did not answer 200 within ${seconds} s`);
}

/** A request that did not answer 2xx: its HTTP status and error code, or the network error. */
export interface Miss {
  at: number;
  label: string;
  status?: number;
  error?: string;
  retryAfter?: string | null;
}

/**
 * Requests through `base`, `loops` at a time, until `stop()`: reads and writes. Every POST carries an
 * Idempotency-Key, as docs/deploy.md asks of a POST nginx may send again (a connection that reaches a stopping
 * instance's listener as it closes is reset after nginx has sent the request).
 */
export function steadyLoad(base: string, loops: number) {
  const misses: Miss[] = [];
  let answered = 0;
  let running = true;
  const call = async (label: string, path: string, init?: RequestInit) => {
    try {
      const response = await fetch(`${base}${path}`, init);
      const body = await response.text();
      answered++;
      if (response.ok) return JSON.parse(body) as Record<string, string>;
      const error = /"error":"([a-z_]+)"/.exec(body)?.[1] ?? body.slice(0, 120);
      misses.push({ at: Date.now(), label, status: response.status, error, retryAfter: response.headers.get('retry-after') });
    } catch (error) {
      misses.push({
        at: Date.now(),
        label,
        error: `${(error as Error).message} ${((error as Error).cause as Error | undefined)?.message ?? ''}`.trim(),
      });
    }
  };
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
      const session = await call('POST start', '/api/agent-session/start', json({ label: 'steady load' }));
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
    misses,
    /** The misses as one line each, for assertion messages. */
    failures: () => misses.map((m) => `${m.label}: ${m.status ?? ''} ${m.error ?? ''}`.trim()),
    answered: () => answered,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}
