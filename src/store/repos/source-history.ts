import type { Kysely } from 'kysely';
import type { DB, SourceHistoryTable } from '../schema.js';

export type HistoryEntry = SourceHistoryTable;

/** Rows of one multi-row INSERT: well under SQLite's 32,766 bound parameters (7 per row). */
const MAX_BATCH = 500;

/** Fetched values per (type, q), for the time machine and for cursor diffs. */
export class SourceHistoryRepo {
  private batch: { entries: HistoryEntry[]; written: Promise<void> } | undefined;

  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Resolves once the entry is stored. Entries recorded in the same tick (the queries of a bundle,
   * concurrent previews) share one INSERT and one commit instead of one each.
   */
  record(entry: HistoryEntry): Promise<void> {
    if (!this.batch || this.batch.entries.length >= MAX_BATCH) {
      const entries: HistoryEntry[] = [];
      const written = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.insert(entries));
      this.batch = { entries, written };
    }
    this.batch.entries.push(entry);
    return this.batch.written;
  }

  private async insert(entries: HistoryEntry[]): Promise<void> {
    if (this.batch?.entries === entries) this.batch = undefined; // later entries start the next batch
    // A fetch instant already stored (same type, q and fetched_at) is kept as it is.
    await this.db
      .insertInto('source_history')
      .values(entries)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The value that was current at `atMs`: the latest fetch at or before that instant. */
  async at(type: string, q: string, atMs: number): Promise<HistoryEntry | undefined> {
    return this.db
      .selectFrom('source_history')
      .selectAll()
      .where('type', '=', type)
      .where('q', '=', q)
      .where('fetched_at', '<=', atMs)
      .orderBy('fetched_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async byHash(type: string, q: string, rowsHash: string): Promise<HistoryEntry | undefined> {
    return this.db
      .selectFrom('source_history')
      .selectAll()
      .where('type', '=', type)
      .where('q', '=', q)
      .where('rows_hash', '=', rowsHash)
      .orderBy('fetched_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Deletes entries fetched before `cutoffMs`; returns how many. */
  async pruneBefore(cutoffMs: number): Promise<number> {
    const result = await this.db.deleteFrom('source_history').where('fetched_at', '<', cutoffMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
