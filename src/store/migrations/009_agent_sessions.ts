import type { Kysely } from 'kysely';

/**
 * Live agent sessions: the session (its write token stored hashed, its sequence counter), its
 * events in sequence order, and screenshots stored once by SHA-256 (base64 text: portable on both
 * engines).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agent_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ttl_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('delete_at', 'bigint')
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('agent_sessions_expiry').on('agent_sessions').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('agent_sessions_deletion').on('agent_sessions').column('delete_at').execute();
  await db.schema
    .createTable('agent_session_events')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('screenshot_sha256', 'text')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_session_events_pk', ['session_id', 'seq'])
    .execute();
  await db.schema.createIndex('agent_session_events_screenshot').on('agent_session_events').column('screenshot_sha256').execute();
  await db.schema
    .createTable('agent_session_screenshots')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('data_b64', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
