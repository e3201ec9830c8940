import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';
import type { DB } from '../../src/store/schema.js';
import { STORE_BACKENDS, uniqueName, type StoreBackend } from '../helpers/backends.js';

const H = 3600_000;

async function openRaw(backend: StoreBackend): Promise<{ db: Kysely<DB>; schema?: string }> {
  if (backend === 'sqlite')
    return {
      db: new Kysely<DB>({ dialect: new SqliteDialect({ database: new SQLite(join(mkdtempSync(join(tmpdir(), 'svc-m8-')), 'svc.db')) }) }),
    };
  const schema = uniqueName('m8');
  // svc's dialect: the driver as svc configures it (bigint columns read as numbers), introspection of this schema only.
  const db = new Kysely<DB>({ dialect: await postgresDialect(process.env.DATABASE_URL!, schema) });
  await sql`create schema ${sql.id(schema)}`.execute(db);
  return { db, schema };
}

const migrate = (db: Kysely<DB>, set: Record<string, Migration>, schema?: string) =>
  new Migrator({ db, provider: { getMigrations: async () => set }, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();

const claim = (claim_id: string, agent_id: string, resolver: string, status: 'resolved' | 'unresolved', created_at: number) => ({
  claim_id,
  agent_id,
  kind: 'k',
  predicted_p: 0.123456789,
  payload_json: '{}',
  resolver_json: JSON.stringify({ type: resolver, config: {} }),
  created_at,
  expected_resolution_at: 0,
  status,
  outcome: status === 'resolved' ? 1 : null,
  evidence_json: null,
  resolved_at: null,
});
const trade = (entry_ts: number, claim_id: string | null) => ({
  strategy: 's',
  asset: 'BTC',
  entry_ts,
  entry_price: 67187.123456,
  predicted_p: 0.55,
  signals_lit_json: '[]',
  claim_id,
  exit_ts: null,
  exit_price: null,
  exit_reason: null,
  pnl_pct: null,
});

describe.each(STORE_BACKENDS)('migration 008 over existing data on %s', (backend) => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    const raw = await openRaw(backend);
    db = raw.db;
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '008'));
    expect((await migrate(db, before, raw.schema)).error).toBeUndefined();
    await db
      .insertInto('calib_claims')
      .values([
        claim('c-self', 'me:bot', 'manual', 'resolved', 100 * H),
        claim('c-price', 'me:bot', 'price_above', 'resolved', 100 * H),
        claim('c-open', 'me:bot', 'manual', 'unresolved', 100 * H),
        claim('c-live', 'arena:s:BTC', 'manual', 'resolved', 50 * H + H),
        claim('c-old', 'arena:s:BTC', 'manual', 'resolved', 100 * H),
      ] as never)
      .execute();
    await db
      .insertInto('arena_trades')
      .values([trade(50 * H, 'c-live'), trade(10 * H, 'c-old'), trade(20 * H, null)] as never)
      .execute();
    expect((await migrate(db, migrations, raw.schema)).error).toBeUndefined();
  });
  afterAll(() => db.destroy());

  it('labels past outcomes: svc resolved arena and price claims, every other one was self-reported', async () => {
    const rows = await db.selectFrom('calib_claims').select(['claim_id', 'outcome_source']).orderBy('claim_id').execute();
    expect(Object.fromEntries(rows.map((r) => [r.claim_id, r.outcome_source]))).toEqual({
      'c-live': 'verified',
      'c-old': 'verified',
      'c-open': null,
      'c-price': 'verified',
      'c-self': 'self_reported',
    });
  });

  it('migration 017 counts the existing claims per (agent, kind), outcomes by source', async () => {
    const rows = await db.selectFrom('calib_kind_counts').selectAll().orderBy('agent_id').execute();
    expect(rows).toEqual([
      { agent_id: 'arena:s:BTC', kind: 'k', n: 2, verified: 2, self_reported: 0 },
      { agent_id: 'me:bot', kind: 'k', n: 3, verified: 1, self_reported: 1 },
    ]);
  });

  it('calls a past trade live only when its claim was recorded within 2 h of entry; no claim means backfill', async () => {
    const rows = await db.selectFrom('arena_trades').select(['entry_ts', 'mode']).orderBy('entry_ts').execute();
    expect(rows).toEqual([
      { entry_ts: 10 * H, mode: 'backfill' },
      { entry_ts: 20 * H, mode: 'backfill' },
      { entry_ts: 50 * H, mode: 'live' },
    ]);
  });

  it('keeps probabilities and prices written after it in double precision (digits float4 already lost stay lost)', async () => {
    await db.updateTable('calib_claims').set({ predicted_p: 0.123456789 }).where('claim_id', '=', 'c-self').execute();
    expect(
      (await db.selectFrom('calib_claims').select('predicted_p').where('claim_id', '=', 'c-self').executeTakeFirstOrThrow()).predicted_p,
    ).toBe(0.123456789);
    await db
      .updateTable('arena_trades')
      .set({ entry_price: 67187.123456, exit_price: 68000.987654321, pnl_pct: 1.209876543210987 })
      .where('entry_ts', '=', 10 * H)
      .execute();
    expect(
      await db
        .selectFrom('arena_trades')
        .select(['entry_price', 'exit_price', 'pnl_pct'])
        .where('entry_ts', '=', 10 * H)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      entry_price: 67187.123456,
      exit_price: 68000.987654321,
      pnl_pct: 1.209876543210987,
    });
  });
});
