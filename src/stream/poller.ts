import type { SourceRunner } from '../sources/runner.js';
import type { Bus } from '../bus/index.js';
import { TICKS_CHANNEL, publishBatch } from './hub.js';

/**
 * Polls the configured watch list and publishes a tick per row of every value that changed since
 * the last poll. Runs as a scheduled job, so with several instances only the lease holder polls.
 */
export class StreamPoller {
  private readonly lastHash = new Map<string, string>();

  constructor(
    private readonly watch: { type: string; q: string }[],
    private readonly runner: SourceRunner,
    private readonly bus: Bus,
  ) {}

  async poll(): Promise<void> {
    await Promise.all(this.watch.map((entry) => this.pollOne(entry.type, entry.q)));
  }

  private async pollOne(type: string, q: string): Promise<void> {
    const result = await this.runner.run(type, q);
    const key = `${type}:${q}`;
    if (!result.ok || this.lastHash.get(key) === result.rows_hash) return;
    this.lastHash.set(key, result.rows_hash);
    await publishBatch(
      this.bus,
      TICKS_CHANNEL,
      result.rows.map((row) => ({ type, ...row })),
    );
  }
}
