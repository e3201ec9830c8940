import type { Kysely } from 'kysely';

/** Every fetched value with its `as_of`: the preview time machine and cursor diffs read it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('source_history')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('q', 'text', (c) => c.notNull())
    .addColumn('as_of', 'bigint', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('rows_hash', 'text', (c) => c.notNull())
    .addColumn('rows_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('source_history_pk', ['type', 'q', 'fetched_at'])
    .execute();
  await db.schema.createIndex('source_history_hash').on('source_history').columns(['type', 'q', 'rows_hash']).execute();
}
