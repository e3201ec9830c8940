import type { Kysely } from 'kysely';

/**
 * x402 authorizations (the unique key makes each one single-use across instances), passes (token
 * hashes only) and redeemed checkout sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_authorizations')
    .addColumn('auth_key', 'text', (c) => c.primaryKey())
    .addColumn('payer', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('request_key', 'text', (c) => c.notNull())
    .addColumn('bound_to_memo', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('valid_before', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('requirements_json', 'text', (c) => c.notNull())
    .addColumn('response_json', 'text')
    .addColumn('settle_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('facilitator_json', 'text')
    .execute();
  await db.schema.createIndex('payment_authorizations_status').on('payment_authorizations').columns(['status', 'valid_before']).execute();
  await db.schema
    .createTable('passes')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('checkout_redemptions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('pass_token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
