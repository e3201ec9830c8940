import type { Kysely } from 'kysely';

/** Constitutional classifier: honeypot attempts (hashes only, never texts) and self-jailbreak runs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('constitutional_honeypot_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('text_hash', 'text', (c) => c.notNull())
    .addColumn('p_harmful', 'real', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('canary_would_leak', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('constitutional_honeypot_attempts_created')
    .on('constitutional_honeypot_attempts')
    .column('created_at')
    .execute();
  await db.schema
    .createTable('constitutional_honeypot_patterns')
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('pattern_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('constitutional_honeypot_patterns_pk', ['attempt_id', 'pattern_id'])
    .execute();
  await db.schema
    .createTable('constitutional_selftest_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ran_at', 'bigint', (c) => c.notNull())
    .addColumn('report_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('constitutional_selftest_runs_ran_at').on('constitutional_selftest_runs').column('ran_at').execute();
}
