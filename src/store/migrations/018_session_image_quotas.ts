import { sql, type Kysely } from 'kysely';

/**
 * Quotas on stored session screenshots: the bytes each session has stored (its per-session quota)
 * and each stored image's size (the global budget sums them). Existing rows get their sizes from
 * the stored base64.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('agent_sessions')
    .addColumn('image_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('agent_session_screenshots')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE agent_session_screenshots SET bytes = length(data_b64) * 3 / 4`.execute(db);
  await sql`
    UPDATE agent_sessions SET image_bytes = COALESCE((
      SELECT SUM(img.bytes) FROM agent_session_events e JOIN agent_session_screenshots img ON img.sha256 = e.screenshot_sha256
      WHERE e.session_id = agent_sessions.session_id), 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('agent_sessions').dropColumn('image_bytes').execute();
  await db.schema.alterTable('agent_session_screenshots').dropColumn('bytes').execute();
}
