import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, Migrator } from 'kysely';
import { createStore, loadPg, postgresDialect } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';
import type { DB } from '../../src/store/schema.js';
import { waitFor } from '../helpers/demo-server.js';
import { adminQuery, uniqueName } from '../helpers/backends.js';

const ALL_MIGRATIONS = Object.keys(migrations).sort();
/** The Postgres advisory lock Kysely's Migrator holds while it migrates (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

/** svc's migration step on Postgres: Kysely's bookkeeping tables, their lock and what a start reports. */
describe.runIf(Boolean(process.env.DATABASE_URL))('migrating a Postgres schema', () => {
  const schemas: string[] = [];
  const newSchema = async (prefix: string) => {
    const schema = uniqueName(prefix);
    schemas.push(schema);
    await adminQuery(`create schema ${schema}`);
    return schema;
  };
  /**
   * Kysely's Migrator run directly with the options svc gave it before this change. On svc's dialect all the same:
   * Kysely's own introspection would read every schema, and fail when another test file drops one meanwhile.
   */
  const kyselyMigrator = async <T>(schema: string, run: (migrator: Migrator) => Promise<T>): Promise<T> => {
    const db = new Kysely<DB>({ dialect: await postgresDialect(process.env.DATABASE_URL!, schema) });
    try {
      return await run(new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema }));
    } finally {
      await db.destroy();
    }
  };
  /** The rows of Kysely's two tables in `schema`. */
  const bookkeeping = async (schema: string) =>
    (
      await adminQuery<{ migrations: { name: string; timestamp: string }[] | null; lock: { id: string; is_locked: number }[] }>(
        `select (select json_agg(m order by name) from ${schema}.kysely_migration m) as migrations,
          (select json_agg(l) from ${schema}.kysely_migration_lock l) as lock`,
      )
    )[0]!;
  afterAll(async () => {
    if (schemas.length) await adminQuery(`drop schema if exists ${schemas.join(', ')} cascade`);
  });

  it('a schema Kysely migrated before this start is up to date: nothing applied, every migration listed, its bookkeeping untouched', async () => {
    const schema = await newSchema('upgrade');
    expect((await kyselyMigrator(schema, (m) => m.migrateToLatest())).error).toBeUndefined();
    const before = await bookkeeping(schema);

    const store = await createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema });
    await store.close();

    expect(store.migrated).toEqual([]);
    expect(store.migrations).toEqual(ALL_MIGRATIONS);
    expect(await bookkeeping(schema)).toEqual(before);
  });

  it('a schema this start migrated is one Kysely finds up to date (a downgrade to a version that runs it directly)', async () => {
    const schema = await newSchema('downgrade');
    const store = await createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema });
    await store.close();
    expect(store.migrated).toEqual(ALL_MIGRATIONS);

    const pending = await kyselyMigrator(schema, async (m) => (await m.getMigrations()).filter((info) => info.executedAt === undefined));
    expect(pending).toEqual([]);
    expect(await kyselyMigrator(schema, (m) => m.migrateToLatest())).toEqual({ results: [] });
    expect((await bookkeeping(schema)).lock).toEqual([{ id: 'migration_lock', is_locked: 0 }]);
  });

  it('a migration that fails fails the start, naming itself, with the driver error as its cause', async () => {
    const schema = await newSchema('failing');
    await adminQuery(`create table ${schema}.source_history (taken text)`); // in the way of 001's table

    const failure = await createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema }).catch((error: Error) => error);

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('migration 001_source_history failed: relation "source_history" already exists');
    expect(((failure as Error).cause as { code?: string }).code).toBe('42P07');
    expect((await bookkeeping(schema)).migrations).toBeNull();
  });

  it('two instances starting at once on a fresh schema: one migrates, the other waits on the lock and finds nothing to do', async () => {
    const schema = await newSchema('twins');
    const name = uniqueName('twins'); // the instances' sessions, told apart from every other on the database
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    url.searchParams.set('application_name', name);
    const pg = await loadPg();
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      // Holding Kysely's lock makes both reach it before either migrates: the two starts overlap for certain.
      await holder.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      const starts = [0, 1].map(() => createStore({ databaseUrl: url.toString(), sqlitePath: '' }));
      await waitFor('both instances waiting on the migration lock', async () => {
        const { rows } = await holder.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_locks l join pg_stat_activity a using (pid)
            where l.locktype = 'advisory' and not l.granted and a.application_name = $1`,
          [name],
        );
        return rows[0]!.waiting === 2 ? true : undefined;
      });
      await holder.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
      const stores = await Promise.all(starts);
      await Promise.all(stores.map((store) => store.close()));

      expect(stores.map((store) => store.migrated).sort((a, b) => a.length - b.length)).toEqual([[], ALL_MIGRATIONS]);
      expect(stores.map((store) => store.migrations)).toEqual([ALL_MIGRATIONS, ALL_MIGRATIONS]);
      expect((await bookkeeping(schema)).migrations?.map((m) => m.name)).toEqual(ALL_MIGRATIONS);
    } finally {
      await holder.end();
    }
  });
});
