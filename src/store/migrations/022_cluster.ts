import type { Kysely } from 'kysely';

/**
 * The cluster's identity and its members: the signing keys it has used (one current; the earlier ones retired by a
 * rotation, so an instance started with a retired key is refused) and a heartbeat row per running instance (live
 * instances, the key each signs with and whether it has Redis).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('spki', 'text', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    // 1 for the current key, null for retired ones: unique, so two instances registering different keys at once cannot both win.
    .addColumn('current', 'integer', (c) => c.unique())
    .execute();
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('redis', 'integer', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('beats', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('instances_heartbeat').on('instances').column('heartbeat_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instances').execute();
  await db.schema.dropTable('signing_keys').execute();
}
