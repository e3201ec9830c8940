import type { Kysely } from 'kysely';

/** Model olympics: events (a question, its data and resolver) and each panel model's answer to it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('olympics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('discipline', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('resolver_json', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('resolves_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'integer')
    .addColumn('evidence_json', 'text')
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('olympics_events_opened').on('olympics_events').columns(['opened_at', 'id']).execute();
  await db.schema.createIndex('olympics_events_due').on('olympics_events').columns(['status', 'resolves_at']).execute();
  await db.schema
    .createTable('olympics_answers')
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('model_id', 'text', (c) => c.notNull())
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('p', 'double precision')
    .addColumn('rationale', 'text')
    .addColumn('reason', 'text')
    .addColumn('claim_id', 'text')
    .addColumn('answered_at', 'bigint', (c) => c.notNull())
    .addColumn('brier', 'double precision')
    .addColumn('medal', 'text')
    .addPrimaryKeyConstraint('olympics_answers_pk', ['event_id', 'model_id'])
    .execute();
}
