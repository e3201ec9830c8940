import { randomUUID } from 'node:crypto';
import type { BackgroundErrors } from '../core/background.js';
import type { Clock } from '../core/clock.js';
import type { LeaseRepo } from '../store/repos/leases.js';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

/**
 * Runs jobs on an interval. Each run first takes the job's lease in the store, so with several
 * instances on one database only one of them runs a job at a time. A job that fails, its lease
 * query included (the database away), is counted and logged by `background` and tried again after
 * a growing delay instead of its interval; nothing a job throws leaves `tick`. `tick` runs every job
 * that is due, for tests driving a manual clock.
 */
export class Scheduler {
  private readonly holder = randomUUID();
  private readonly dueAt = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    readonly jobs: readonly Job[],
    private readonly leases: LeaseRepo,
    private readonly clock: Clock,
    private readonly background: BackgroundErrors,
  ) {}

  start(pollMs = 1000): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async tick(): Promise<void> {
    const now = this.clock.now();
    for (const job of this.jobs) {
      if (now < (this.dueAt.get(job.name) ?? -Infinity)) continue;
      this.dueAt.set(job.name, now + job.everyMs);
      const retryInMs = await this.runOnce(job, now);
      if (retryInMs !== undefined) this.dueAt.set(job.name, now + retryInMs);
    }
  }

  /** Runs the job if this instance holds its lease; on failure, how long until it is tried again. */
  private async runOnce(job: Job, now: number): Promise<number | undefined> {
    try {
      if (await this.leases.acquire(job.name, this.holder, now, job.everyMs - 100)) await job.run();
      this.background.succeeded(job.name);
      return undefined;
    } catch (err) {
      return this.background.failed(job.name, err);
    }
  }
}
