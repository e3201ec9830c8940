/**
 * The compiled service (dist/src/main.js) in a process of its own, as `npm start` runs it (same V8 flags): SQLite,
 * in-process bus and cache, scheduler off, limits out of the way. Its RSS and CPU are read from /proc,
 * so nothing else (load generator, simulator, harness) is counted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The V8 flags `npm start` runs the service with (package.json): a young generation capped at 8 MB. */
const NODE_FLAGS = ['--max-semi-space-size=8'];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** utime + stime of a process in ms (clock ticks of 10 ms): load on other processes does not inflate it. */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
};

/** A server is settled when it spends under this share of one core, three seconds in a row, while nobody asks it anything. */
const IDLE_SHARE = 0.05;
const IDLE_WINDOW_MS = 1000;
const IDLE_WINDOWS = 3;

/**
 * Waits until the process `pid` is idle (under 5 % of a core for three seconds in a row), at most `timeoutMs`, and says
 * after how many seconds. The scheduler's first tick (a second after start) runs every job once, a day's jobs included
 * (the constitutional self-jailbreak evaluation: about a second of CPU on a quiet machine, after the quick jobs): measured
 * before they finish, a configuration with the scheduler on is charged for them, by chance of timing.
 */
export async function settled(pid: number, timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  for (let idle = 0; idle < IDLE_WINDOWS && Date.now() - started < timeoutMs;) {
    const before = cpuMs(pid);
    await sleep(IDLE_WINDOW_MS);
    const after = cpuMs(pid);
    idle = after.user - before.user + after.system - before.system < IDLE_SHARE * IDLE_WINDOW_MS ? idle + 1 : 0;
  }
  return (Date.now() - started) / 1000;
}

/** Resident set now (VmRSS) or its peak since the process started (VmHWM), in MB. */
export const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Every process of a server: `pid` and its children (nginx's workers, SVC_WORKERS's workers). */
export const processTree = (pid: number): number[] => [
  pid,
  ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
];

/** The bench's lean configuration: no background jobs, no log lines (what `asShipped` leaves at their defaults). */
const LEAN = { SVC_SCHEDULER: '0', LOG_LEVEL: 'silent' };

/**
 * The service with `env` (SQLite, no Redis unless `env` names them). With SVC_WORKERS above 1 it is
 * ready once its primary says every worker listens, not at the first worker's /healthz. `asShipped`
 * keeps the default configuration (scheduler and stream poller on, info-level JSON logs on stdout);
 * only the anonymous rate limit is raised either way, so a load run measures answers, not 429s.
 */
export async function startServerProcess(
  env: Record<string, string>,
  { asShipped = false }: { asShipped?: boolean } = {},
): Promise<{ child: ChildProcess; base: string; pid: number }> {
  const port = await freePort();
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const childEnv: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_RATE_ANON_PER_MIN: '100000000',
    ...(asShipped ? {} : LEAN),
    ...env,
  };
  const main = fileURLToPath(new URL('../src/main.js', import.meta.url));
  // As shipped, log lines go down a pipe (as to a terminal or a log collector), drained here.
  const child = spawn(process.execPath, [...NODE_FLAGS, main], { env: childEnv, stdio: ['ignore', asShipped ? 'pipe' : 'ignore', 'pipe'] });
  child.stdout?.resume();
  let workersListening = Number(env.SVC_WORKERS ?? 1) <= 1;
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    if (chunk.toString().includes('workers listening')) workersListening = true;
  });
  const base = `http://127.0.0.1:${port}`;
  const up = () =>
    fetch(`${base}/healthz`).then(
      (r) => r.ok && workersListening,
      () => false,
    );
  for (let i = 0; i < 600; i++) {
    if (await up()) return { child, base, pid: child.pid! };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('server did not start within 60 s');
}
