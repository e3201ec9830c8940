import type { Clock } from '../core/clock.js';
import type { SourceRunner } from '../sources/runner.js';
import type { StreamHub } from './hub.js';

/**
 * Polls the configured watch list and publishes a tick per row of every value that changed since
 * the last poll. Runs as a scheduled job, so with several instances only the lease holder polls.
 */
export class StreamPoller {
  private readonly lastHash = new Map<string, string>();

  constructor(
    private readonly watch: { type: string; q: string }[],
    private readonly runner: SourceRunner,
    private readonly hub: StreamHub,
    private readonly clock: Clock,
  ) {}

  async poll(): Promise<void> {
    await Promise.all(this.watch.map((entry) => this.pollOne(entry.type, entry.q)));
  }

  private async pollOne(type: string, q: string): Promise<void> {
    const result = await this.runner.run(type, q);
    const key = `${type}:${q}`;
    if (!result.ok || this.lastHash.get(key) === result.rows_hash) return;
    this.lastHash.set(key, result.rows_hash);
    for (const row of result.rows) await this.hub.publish({ type, ...row }, this.clock.now());
  }
}
