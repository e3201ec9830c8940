import { ApiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { servedRows } from '../sources/freshness.js';
import type { SourceRunner } from '../sources/runner.js';
import type { SnapshotRepo } from '../store/repos/snapshots.js';

/** The market basket recorded every minute (documented in docs/api.md). */
export const SNAPSHOT_BASKET = [
  { key: 'crypto', type: 'crypto-price', q: 'bitcoin,ethereum,solana' },
  { key: 'gas', type: 'gas-prices-eth', q: '' },
  { key: 'fear_greed', type: 'sentiment-ticker', q: 'BTC' },
  { key: 'us_10y_yield', type: 'economic-indicator', q: 'DGS10' },
  { key: 'eur_usd', type: 'forex', q: 'EUR:USD' },
  { key: 'gold', type: 'commodity-metals', q: 'gold' },
  { key: 'wti', type: 'energy-oil', q: 'WTI' },
] as const;

export interface SnapshotItem {
  key: string;
  type: string;
  q: string;
  ok: boolean;
  source?: string;
  as_of?: number;
  /** Unix ms when svc fetched the value (absent in snapshots recorded before it was kept: taken_at stands in). */
  fetched_at?: number;
  rows?: Record<string, unknown>[];
  error?: string;
}

export const SNAPSHOT_EVERY_MS = 60_000;
const KEEP_MS = 2 * 3600_000;
export const MAX_AGO_MINUTES = 60;

export class SnapshotService {
  constructor(
    private readonly runner: SourceRunner,
    private readonly repo: SnapshotRepo,
    private readonly clock: Clock,
  ) {}

  /** Fetches the basket (through the cache) and stores it; failed items are kept with their reason. */
  async record(): Promise<void> {
    const takenAt = this.clock.now();
    const items = await Promise.all(
      SNAPSHOT_BASKET.map(async ({ key, type, q }) => {
        const result = await this.runner.run(type, q);
        const item: SnapshotItem = result.ok
          ? { key, type, q, ok: true, source: result.source, as_of: result.as_of, fetched_at: result.fetched_at, rows: result.rows }
          : { key, type, q, ok: false, error: result.error };
        return item;
      }),
    );
    await this.repo.save({ taken_at: takenAt, data: { items } });
    await this.repo.pruneBefore(takenAt - KEEP_MS);
  }

  async at(agoMinutes: number) {
    const target = this.clock.now() - agoMinutes * 60_000;
    const snapshot = await this.repo.atOrBefore(target);
    if (!snapshot || snapshot.taken_at < target - SNAPSHOT_EVERY_MS * 5) {
      throw new ApiError('no_history', `no snapshot was recorded at or shortly before ${agoMinutes} minutes ago`, { field: 'ago' });
    }
    const items = (snapshot.data.items as SnapshotItem[]).map((item) => this.servedNow(item, snapshot.taken_at));
    return { taken_at: snapshot.taken_at, as_of: Math.floor(snapshot.taken_at / 1000), ago_minutes: agoMinutes, items };
  }

  /** A recorded item's rows with their age and staleness as of this answer (freshness.ts). */
  private servedNow(item: SnapshotItem, takenAt: number): SnapshotItem {
    if (!item.rows) return item;
    const { descriptor } = this.runner.prepare(item.type, item.q);
    const served = { fetchedAtMs: item.fetched_at ?? takenAt, ttlSeconds: descriptor.ttlSeconds, nowMs: this.clock.now() };
    return { ...item, rows: servedRows(item.rows, served) };
  }
}
