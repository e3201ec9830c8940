import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import type { LeaseRepo } from '../store/repos/leases.js';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

/**
 * Runs jobs on an interval. Each run first takes the job's lease in the store, so with several
 * instances on one database only one of them runs a job at a time. `tick` runs every job that is
 * due, for tests driving a manual clock.
 */
export class Scheduler {
  private readonly holder = randomUUID();
  private readonly lastRun = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly jobs: Job[],
    private readonly leases: LeaseRepo,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
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
      if (now - (this.lastRun.get(job.name) ?? -Infinity) < job.everyMs) continue;
      this.lastRun.set(job.name, now);
      if (!(await this.leases.acquire(job.name, this.holder, now, job.everyMs - 100))) continue;
      await job.run().catch((err: unknown) => this.log.error({ err, job: job.name }, 'scheduled job failed'));
    }
  }
}
