import type { Clock } from '../core/clock.js';
import type { SourceRunner } from '../sources/runner.js';
import type { WatchEntry } from './watch.js';

/**
 * Polls the watch list, each entry once its interval has passed. It only asks the source runner:
 * the runner publishes every fresh answer as ticks, whoever asked. Runs as a scheduled job, so with
 * several instances only the lease holder polls.
 */
export class StreamPoller {
  private readonly dueAt = new Map<string, number>();

  constructor(
    private readonly watch: WatchEntry[],
    private readonly runner: SourceRunner,
    private readonly clock: Clock,
  ) {}

  async poll(): Promise<void> {
    const now = this.clock.now();
    const due = this.watch.filter((entry) => (this.dueAt.get(entry.type) ?? 0) <= now);
    for (const entry of due) this.dueAt.set(entry.type, now + entry.everyS * 1000);
    // A value someone else fetched within its TTL is already on the stream: the cache answers that poll.
    const polls = await Promise.allSettled(due.map((entry) => this.runner.run(entry.type, entry.q, { maxAgeS: entry.ttlS })));
    // Upstream trouble is an ok:false answer, not a rejection: what rejects (the database away) is the job's failure to report.
    const failed = polls.find((poll) => poll.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
