import type { Kysely } from 'kysely';
import type { DB, ViralListsTable } from '../schema.js';

export type ViralList = ViralListsTable;

export class ViralRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async save(list: ViralList): Promise<void> {
    await this.db
      .insertInto('viral_lists')
      .values(list)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The newest list for a niche fetched at or after `sinceMs`. */
  async latest(niche: string, sinceMs: number): Promise<ViralList | undefined> {
    return this.db
      .selectFrom('viral_lists')
      .selectAll()
      .where('niche', '=', niche)
      .where('fetched_at', '>=', sinceMs)
      .orderBy('fetched_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async pruneBefore(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('viral_lists').where('fetched_at', '<', cutoffMs).execute();
  }
}
