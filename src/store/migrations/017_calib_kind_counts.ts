import { sql, type Kysely } from 'kysely';

/**
 * Claim counts per (agent, kind), kept by insertClaim and resolve, so a curve or a card reads one row per
 * kind instead of grouping all of an agent's claims (the read cost no longer grows with the ledger).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calib_kind_counts')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('self_reported', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('calib_kind_counts_pk', ['agent_id', 'kind'])
    .execute();
  await sql`
    INSERT INTO calib_kind_counts (agent_id, kind, n, verified, self_reported)
    SELECT agent_id, kind, COUNT(*),
      SUM(CASE WHEN outcome_source = 'verified' THEN 1 ELSE 0 END),
      SUM(CASE WHEN outcome_source = 'self_reported' THEN 1 ELSE 0 END)
    FROM calib_claims GROUP BY agent_id, kind`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('calib_kind_counts').execute();
}
