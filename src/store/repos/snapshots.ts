import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface Snapshot {
  taken_at: number;
  data: Record<string, unknown>;
}

export class SnapshotRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async save(snapshot: Snapshot): Promise<void> {
    await this.db
      .insertInto('snapshots')
      .values({ taken_at: snapshot.taken_at, data_json: JSON.stringify(snapshot.data) })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The latest snapshot taken at or before `atMs`. */
  async atOrBefore(atMs: number): Promise<Snapshot | undefined> {
    const row = await this.db
      .selectFrom('snapshots')
      .selectAll()
      .where('taken_at', '<=', atMs)
      .orderBy('taken_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { taken_at: row.taken_at, data: JSON.parse(row.data_json) as Record<string, unknown> };
  }

  async pruneBefore(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('snapshots').where('taken_at', '<', cutoffMs).execute();
  }
}
