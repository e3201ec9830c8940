import type { Kysely } from 'kysely';

/**
 * Portfolio users (their token stored hashed, their Plaid access token encrypted) and holdings
 * snapshots, one row per sync. Deleting a user deletes both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portfolio_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('plaid_item_id', 'text')
    .addColumn('plaid_token_enc', 'text')
    .execute();
  await db.schema
    .createTable('portfolio_snapshots')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('snapshot_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('portfolio_snapshots_pk', ['user_id', 'taken_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portfolio_snapshots').execute();
  await db.schema.dropTable('portfolio_users').execute();
}
