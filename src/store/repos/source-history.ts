import type { Kysely } from 'kysely';
import type { DB, SourceHistoryTable } from '../schema.js';

export type HistoryEntry = SourceHistoryTable;

/** Fetched values per (type, q), for the time machine and for cursor diffs. */
export class SourceHistoryRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async record(entry: HistoryEntry): Promise<void> {
    await this.db
      .insertInto('source_history')
      .values(entry)
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
