import type { Kysely } from 'kysely';

/**
 * Calibration claims, per-bin aggregates kept current as outcomes arrive (a curve read costs the
 * same at a million claims as at ten), and training-station agent profiles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calib_claims')
    .addColumn('claim_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('predicted_p', 'real', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('resolver_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expected_resolution_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'integer')
    .addColumn('evidence_json', 'text')
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('calib_claims_due').on('calib_claims').columns(['status', 'expected_resolution_at']).execute();
  await db.schema.createIndex('calib_claims_agent').on('calib_claims').columns(['agent_id', 'kind']).execute();
  await db.schema
    .createTable('calib_bins')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bin_index', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('success_count', 'integer', (c) => c.notNull())
    .addColumn('sum_p', 'real', (c) => c.notNull())
    .addColumn('sum_sq_err', 'real', (c) => c.notNull())
    .addPrimaryKeyConstraint('calib_bins_pk', ['agent_id', 'kind', 'bin_index'])
    .execute();
  await db.schema
    .createTable('calib_agents')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('homepage', 'text')
    .addColumn('public_key', 'text')
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .execute();
}
