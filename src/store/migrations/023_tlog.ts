import { sql, type Kysely } from 'kysely';

/**
 * The transparency log (issue 36): its size row (the sequence every append locks), its entries, the Merkle hashes
 * integration stores for them (dense, golang.org/x/mod/sumdb/tlog's indexes) and the checkpoints it signed. `bytea`
 * is a BLOB on SQLite too (a type name without a known affinity stores blobs as they are).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tlog_size')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into tlog_size (id, size) values (1, 0)`.execute(db);
  await db.schema
    .createTable('tlog_entries')
    .addColumn('idx', 'bigint', (c) => c.primaryKey())
    .addColumn('entry', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tlog_hashes')
    .addColumn('idx', 'bigint', (c) => c.primaryKey())
    .addColumn('hash', 'bytea', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tlog_checkpoints')
    .addColumn('size', 'bigint', (c) => c.primaryKey())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('cosignatures', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tlog_checkpoints', 'tlog_hashes', 'tlog_entries', 'tlog_size']) await db.schema.dropTable(table).execute();
}
