import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** How long after its signal candle closed an arena entry may be recorded and still count as live (see arena/service.ts). */
const LIVE_MAX_LAG_MS = 2 * 3600_000;

/** Columns 006 and 007 created as `real`: 8 bytes in SQLite but float4 in Postgres, where 0.3 or a price lost digits. */
const DOUBLE_COLUMNS = {
  calib_claims: ['predicted_p'],
  calib_bins: ['sum_p', 'sum_sq_err'],
  arena_trades: ['entry_price', 'predicted_p', 'exit_price', 'pnl_pct'],
} as const;

/**
 * Who may write: one credential per agent (its agent_key as a SHA-256 hash, optionally an Ed25519
 * public JWK), signatures already used (replay guard), where each outcome came from, and whether an
 * arena trade was decided live or replayed over history. Also widens the calibration and arena
 * numbers to double precision on Postgres.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [table, columns] of Object.entries(DOUBLE_COLUMNS)) {
      for (const column of columns)
        await db.schema
          .alterTable(table)
          .alterColumn(column, (c) => c.setDataType('double precision'))
          .execute();
    }
  }
  await db.schema
    .createTable('agent_credentials')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .execute();
  await db.schema
    .createTable('agent_signatures_used')
    .addColumn('sig_hash', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_signatures_used_expiry').on('agent_signatures_used').column('expires_at').execute();

  await db.schema.alterTable('calib_claims').addColumn('outcome_source', 'text').execute();
  // Before this migration only svc resolved arena claims and price claims; every other outcome came over HTTP.
  await sql`update calib_claims set outcome_source = case
      when agent_id like 'arena:%' or resolver_json not like '{"type":"manual"%' then 'verified'
      else 'self_reported' end
    where status = 'resolved'`.execute(db);

  await db.schema
    .alterTable('arena_trades')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('backfill'))
    .execute();
  // A trade recorded within LIVE_MAX_LAG_MS of its entry was decided live; the rest were replayed (no claim: unknown, so backfill).
  await sql`update arena_trades set mode = 'live'
    where claim_id is not null
      and (select c.created_at from calib_claims c where c.claim_id = arena_trades.claim_id) - entry_ts <= ${sql.lit(LIVE_MAX_LAG_MS)}`.execute(
    db,
  );
}
