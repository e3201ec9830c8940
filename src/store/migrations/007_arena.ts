import type { Kysely } from 'kysely';

/** Paper trades of the decision arena and their signed attestations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('arena_trades')
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('asset', 'text', (c) => c.notNull())
    .addColumn('entry_ts', 'bigint', (c) => c.notNull())
    .addColumn('entry_price', 'real', (c) => c.notNull())
    .addColumn('predicted_p', 'real', (c) => c.notNull())
    .addColumn('signals_lit_json', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text')
    .addColumn('exit_ts', 'bigint')
    .addColumn('exit_price', 'real')
    .addColumn('exit_reason', 'text')
    .addColumn('pnl_pct', 'real')
    .addPrimaryKeyConstraint('arena_trades_pk', ['strategy', 'asset', 'entry_ts'])
    .execute();
  await db.schema
    .createTable('arena_attestations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('body_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
