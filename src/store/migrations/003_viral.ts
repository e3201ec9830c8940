import type { Kysely } from 'kysely';

/** Daily viral video lists per niche, refreshed every 30 minutes and kept 24 hours. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('viral_lists')
    .addColumn('niche', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('top5_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('viral_lists_pk', ['niche', 'fetched_at'])
    .execute();
}
