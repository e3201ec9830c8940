import cluster, { type Worker } from 'node:cluster';

/**
 * SVC_WORKERS: `count` processes serve one port (node:cluster; the primary accepts connections and
 * hands them to the workers in turn). Each worker is a whole instance: it holds its share of the
 * streams and subscribes on the Redis bus to what its own watchers watch, so every event reaches each
 * worker once (config refuses more than one worker without REDIS_URL). Workers start one after the
 * other, so database migrations never run twice at once. A worker that dies after it listened is
 * replaced. SIGTERM is passed to every worker (each shuts down gracefully) and the primary exits
 * once they have; SIGINT is not passed on, because a terminal's Ctrl-C reaches every process of the
 * group and a second signal would make a worker exit at once. With one worker, `start` runs in this
 * process and no cluster exists.
 */
export async function runWorkers(count: number, start: () => Promise<void>): Promise<void> {
  if (count <= 1 || cluster.isWorker) return start();
  const primary = new Primary(count);
  process.on('SIGTERM', () => primary.stop('SIGTERM'));
  process.on('SIGINT', () => primary.stop());
  await primary.start();
}

class Primary {
  private stopping = false;

  constructor(private readonly count: number) {}

  async start(): Promise<void> {
    for (let i = 0; i < this.count; i++) await this.fork();
    log(`${this.count} workers listening`);
  }

  /** Waits for every worker to exit (sending them `signal` if given), then exits with `code`; a second stop exits at once. */
  stop(signal?: NodeJS.Signals, code = 0): void {
    if (this.stopping) process.exit(1);
    this.stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
    if (workers.length === 0) process.exit(code);
    let left = workers.length;
    for (const worker of workers) {
      worker.once('exit', () => --left === 0 && process.exit(code));
      if (signal) worker.process.kill(signal);
    }
  }

  /** Forks a worker and waits until it listens; one that exits before then stops everything (its error is in its log). */
  private fork(): Promise<void> {
    const worker = cluster.fork();
    return new Promise((resolve) => {
      const failed = (code: number | null) => {
        log(`a worker exited with ${code} before it listened; stopping`);
        this.stop('SIGTERM', 1);
      };
      worker.once('exit', failed);
      worker.once('listening', () => {
        worker.off('exit', failed);
        worker.once('exit', (code, signal) => this.replace(code, signal));
        resolve();
      });
    });
  }

  private replace(code: number | null, signal: string | null): void {
    if (this.stopping) return;
    log(`a worker exited (${signal ?? code}); starting another`);
    void this.fork();
  }
}

/** The primary has no app logger: one JSON line like the workers' pino lines. */
function log(msg: string): void {
  process.stderr.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: `SVC_WORKERS: ${msg}` })}\n`);
}
