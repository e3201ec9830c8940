import type { Kysely } from 'kysely';

/** The pages of answers asked for in pages (`max_tokens`), read through `GET /api/v1/answer-page` for 24 h. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('answer_pages')
    .addColumn('answer_id', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('body_json', 'text', (c) => c.notNull())
    .addColumn('as_of', 'bigint')
    .addColumn('sources_json', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('answer_pages_pk', ['answer_id', 'page'])
    .execute();
  await db.schema.createIndex('answer_pages_expiry').on('answer_pages').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('answer_pages').execute();
}
