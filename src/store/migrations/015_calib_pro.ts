import type { Kysely } from 'kysely';

/** calib-pro: which agents are on the paid tier until when (with their drift-alert settings), and which claims were paid. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calib_pro_agents')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('pro_until', 'bigint', (c) => c.notNull())
    .addColumn('paid_claims', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('ece_threshold', 'double precision')
    .addColumn('min_resolved', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('calib_pro_claims')
    .addColumn('claim_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('payment_ref', 'text')
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calib_pro_claims_agent').on('calib_pro_claims').columns(['agent_id', 'paid_at']).execute();
  // The rate limiter looks a calib-pro agent up by the key a request carries.
  await db.schema.createIndex('agent_credentials_key_hash').on('agent_credentials').column('key_hash').execute();
  await db.schema.createIndex('calib_claims_agent_resolved').on('calib_claims').columns(['agent_id', 'resolved_at']).execute();
}
