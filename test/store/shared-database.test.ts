import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createStore, loadPg } from '../../src/store/db.js';
import { openStore, uniqueName } from '../helpers/backends.js';

async function admin(statement: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/** svc in one schema of a Postgres database whose other schemas hold other migrated instances. */
describe.runIf(Boolean(process.env.DATABASE_URL))('a Postgres database shared with other schemas', () => {
  // Left in place like every other test's schema: dropping it while other files start svc on the same database fails
  // their migrations (Kysely's introspection reads every schema by name and finds this one gone mid-query).
  const schema = uniqueName('own');

  it('migrates the schema its URL selects even when another schema holds Kysely migration tables', async () => {
    await (await openStore('postgres')).close(); // another schema, migrated
    await admin(`create schema ${schema}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);

    const store = await createStore({ databaseUrl: url.toString(), sqlitePath: '' });
    try {
      const own = await sql<{ table_name: string }>`select table_name from information_schema.tables
        where table_schema = ${schema} and table_name like 'kysely_migration%' order by table_name`.execute(store.db);
      expect(own.rows.map((r) => r.table_name)).toEqual(['kysely_migration', 'kysely_migration_lock']);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      expect(applied.rows[0]?.name).toBe('001_source_history');
    } finally {
      await store.close();
    }
  });
});
