import type { Kysely } from 'kysely';

/** Job leases (one instance runs each scheduled job) and the minute-by-minute market snapshots. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('snapshots')
    .addColumn('taken_at', 'bigint', (c) => c.primaryKey())
    .addColumn('data_json', 'text', (c) => c.notNull())
    .execute();
}
