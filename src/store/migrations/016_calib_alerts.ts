import type { Kysely } from 'kysely';

/** calib-pro drift alerts: the last drift state seen per (agent, kind), and webhook deliveries with their retry schedule. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calib_drift_state')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('drifting', 'integer', (c) => c.notNull())
    .addColumn('ece', 'double precision')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('calib_drift_state_pk', ['agent_id', 'kind'])
    .execute();
  await db.schema
    .createTable('calib_webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('calib_webhook_deliveries_due')
    .on('calib_webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
