import type { Kysely } from 'kysely';

/**
 * AgentShield's tool-audit history: one row per audit of a URL, with the manifest hash and a hash per
 * tool, so a later audit of the same URL reports what changed (a "rug pull").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shield_manifest_audits')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('audited_at', 'bigint', (c) => c.notNull())
    .addColumn('manifest_sha256', 'text', (c) => c.notNull())
    .addColumn('tool_hashes_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shield_manifest_audits_pk', ['url', 'audited_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shield_manifest_audits').execute();
}
