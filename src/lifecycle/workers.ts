import cluster, { type Worker } from 'node:cluster';
import { retryDelayMs } from '../core/background.js';

/**
 * A worker forked once the deployment is up is a replacement: the start-up work (database
 * migrations, the demo world's history and backfill) was done by the first generation, so it skips
 * it and listens within a second or two. Set by the primary in the worker's environment only.
 */
const REPLACEMENT_ENV = 'SVC_WORKER_REPLACEMENT';
/** A worker that served this long before it died was healthy: its replacement starts without delay. */
const HEALTHY_UPTIME_MS = 30_000;

/** `first`: do the start-up work before listening; `replacement`: another worker of this deployment did it. */
export type Generation = 'first' | 'replacement';

/**
 * How the workers share the port: each accepts from the listening socket itself (SCHED_NONE) unless the operator
 * chose otherwise with NODE_CLUSTER_SCHED_POLICY. Node's default on Linux, round-robin, has the primary accept each
 * connection and hand it to a worker over IPC: a connection in that hand-off when the worker dies is neither answered
 * nor reset (the primary keeps it open, waiting for an acknowledgement that never comes). Measured with two workers,
 * 32 clients and a kill -9: round-robin left one client hanging in every trial and SCHED_NONE none, with the CPU split
 * between the workers alike, and 1.5 times the new connections a second without the hand-off.
 */
function shareThePortByAccepting(): void {
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/**
 * SVC_WORKERS: `count` processes serve one port (node:cluster; each worker accepts connections from
 * the shared socket, see shareThePortByAccepting). Each worker is a whole instance: it holds its share of the
 * streams and subscribes on the Redis bus to what its own watchers watch, so every event reaches each
 * worker once (config refuses more than one worker without REDIS_URL). Workers start one after the
 * other, so database migrations never run twice at once. Until one listens, a worker that exits ends
 * the primary with its exit code (a start-up error keeps its documented code); once the deployment is
 * up, a worker that dies, before or after it listened, is replaced, after a growing delay while
 * replacements keep dying (the database away), and the primary never exits because of it. SIGTERM is
 * passed to every worker (each shuts down gracefully) and the primary exits once they have; SIGINT is
 * not passed on, because a terminal's Ctrl-C reaches every process of the group and a second signal
 * would make a worker exit at once. With one worker, `start` runs in this process and no cluster exists.
 */
export async function runWorkers(count: number, start: (generation: Generation) => Promise<void>): Promise<void> {
  if (cluster.isWorker) return start(process.env[REPLACEMENT_ENV] === '1' ? 'replacement' : 'first');
  if (count <= 1) return start('first');
  shareThePortByAccepting();
  const primary = new Primary(count);
  process.on('SIGTERM', () => primary.stop('SIGTERM'));
  process.on('SIGINT', () => primary.stop());
  await primary.start();
}

class Primary {
  private stopping = false;
  /** Some worker listened: the start-up work is done and the port is served. */
  private up = false;
  /** Workers in a row that died before they had served HEALTHY_UPTIME_MS. */
  private failures = 0;
  private pending?: NodeJS.Timeout;

  constructor(private readonly count: number) {}

  async start(): Promise<void> {
    let listening = 0;
    for (let i = 0; i < this.count; i++) if (await this.fork(false)) listening++;
    log(`${listening} workers listening${listening < this.count ? `; ${this.count - listening} being replaced` : ''}`);
  }

  /** Waits for every worker to exit (sending them `signal` if given), then exits with `code`; a second stop exits at once. */
  stop(signal?: NodeJS.Signals, code = 0): void {
    if (this.stopping) process.exit(1);
    this.stopping = true;
    clearTimeout(this.pending);
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
    if (workers.length === 0) process.exit(code);
    let left = workers.length;
    for (const worker of workers) {
      worker.once('exit', () => --left === 0 && process.exit(code));
      if (signal) worker.process.kill(signal);
    }
  }

  /** Forks a worker; true once it listens, false if it exited first (then it is replaced, or ends the primary if none ever listened). */
  private fork(replacing: boolean): Promise<boolean> {
    // Once a worker listens, the start-up work is done: every worker forked after it skips it.
    const generation: Generation = this.up ? 'replacement' : 'first';
    const forkedAt = Date.now();
    const worker = cluster.fork(generation === 'replacement' ? { [REPLACEMENT_ENV]: '1' } : {});
    return new Promise((resolve) => {
      let listenedAt: number | undefined;
      worker.once('listening', () => {
        listenedAt = Date.now();
        this.up = true;
        if (replacing) log(`a replacement worker listens, ${listenedAt - forkedAt} ms after it was started`);
        resolve(true);
      });
      worker.once('exit', (code, signal) => {
        resolve(false);
        this.exited(listenedAt, code, signal);
      });
    });
  }

  private exited(listenedAt: number | undefined, code: number | null, signal: string | null): void {
    if (this.stopping) return;
    if (!this.up) {
      log(`a worker exited with ${signal ?? code} before any worker listened; stopping`);
      return this.stop('SIGTERM', code || 1);
    }
    const healthy = listenedAt !== undefined && Date.now() - listenedAt >= HEALTHY_UPTIME_MS;
    this.failures = healthy ? 0 : this.failures + 1;
    const delayMs = this.failures === 0 ? 0 : retryDelayMs(this.failures);
    const when = listenedAt === undefined ? 'before it listened' : 'after it listened';
    log(`a worker exited (${signal ?? code}) ${when}; starting another in ${delayMs} ms`);
    this.pending = setTimeout(() => void this.fork(true), delayMs);
  }
}

/** The primary has no app logger: one JSON line like the workers' pino lines. */
function log(msg: string): void {
  process.stderr.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: `SVC_WORKERS: ${msg}` })}\n`);
}
