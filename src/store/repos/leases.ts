import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/**
 * Time-bound leases in the shared store: with several instances on one database exactly one holds
 * a job's lease at a time. Acquiring is one atomic upsert that only overwrites an expired lease or
 * our own.
 */
export class LeaseRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async acquire(name: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    await this.db
      .insertInto('leases')
      .values({ name, holder, expires_at: nowMs + ttlMs })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ holder, expires_at: nowMs + ttlMs })
          .where((eb) => eb.or([eb('leases.expires_at', '<=', nowMs), eb('leases.holder', '=', holder)])),
      )
      .execute();
    const row = await this.db.selectFrom('leases').select('holder').where('name', '=', name).executeTakeFirst();
    return row?.holder === holder;
  }
}
