import type { Kysely } from 'kysely';

/**
 * Idempotent paid requests: one row per paid request that a retry must not charge again, keyed by the x402
 * authorization (`x402:<auth_key>`) or by the payer's `Idempotency-Key` (`key:<payer>:<sha256 of the key>`). The row
 * is claimed before the request runs (a unique insert, as the authorizations are), holds a lease while it runs, the
 * charge once it is recorded, and then the answer as it was sent. The answers move here from the authorizations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotent_requests')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('request_key', 'text', (c) => c.notNull())
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('charge_method', 'text')
    .addColumn('charge_ref', 'text')
    .addColumn('charge_amount', 'text')
    .addColumn('charged_at', 'bigint')
    .addColumn('settle_headers_json', 'text')
    .addColumn('response_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotent_requests_caller').on('idempotent_requests').columns(['caller', 'charged_at']).execute();
  await db.schema.createIndex('idempotent_requests_expiry').on('idempotent_requests').column('expires_at').execute();
  await db.schema.alterTable('payment_authorizations').dropColumn('response_json').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_authorizations').addColumn('response_json', 'text').execute();
  await db.schema.dropTable('idempotent_requests').execute();
}
