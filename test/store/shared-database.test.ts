import { describe, expect, it } from 'vitest';
import { sql, type CompiledQuery } from 'kysely';
import { createStore, loadPg } from '../../src/store/db.js';
import { migrations } from '../../src/store/migrations/index.js';
import { adminQuery, openStore, uniqueName } from '../helpers/backends.js';

const ALL_MIGRATIONS = Object.keys(migrations).sort();

/** svc in one schema of a Postgres database whose other schemas hold other migrated instances and other applications. */
describe.runIf(Boolean(process.env.DATABASE_URL))('a Postgres database shared with other schemas', () => {
  it('migrates the schema its URL selects even when another schema holds Kysely migration tables', async () => {
    const otherSchema = uniqueName('other');
    const other = await openStore('postgres', otherSchema); // another schema, migrated
    const schema = uniqueName('own');
    await adminQuery(`create schema ${schema}`);
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
      await other.close();
      await adminQuery(`drop schema ${schema}, ${otherSchema} cascade`);
    }
  });

  // Kysely's Migrator listed every column of every schema to find its two tables, several times per start: each
  // start slowed as the database grew (the test suite's schemas, or other applications').
  it('a start reads nothing of another schema from the catalog: what its catalog queries answer names no other schema', async () => {
    const neighbour = uniqueName('neighbour');
    const schema = uniqueName('own');
    await adminQuery(`create schema ${neighbour} create table notes (id serial primary key, body text)`);
    const catalogQueries: CompiledQuery[] = [];
    const store = await createStore({
      databaseUrl: process.env.DATABASE_URL,
      sqlitePath: '',
      schema,
      log: (event) =>
        void (event.level === 'query' && /pg_catalog|information_schema/.test(event.query.sql) && catalogQueries.push(event.query)),
    });
    try {
      expect(store.migrated).toEqual(ALL_MIGRATIONS);
      const startUp = [...catalogQueries]; // asking them again below logs them again
      expect(startUp.length).toBeGreaterThan(0);
      for (const query of startUp) {
        const { rows } = await store.db.executeQuery<Record<string, unknown>>(query);
        expect(rows.flatMap((row) => Object.values(row))).not.toContain(neighbour);
      }
    } finally {
      await store.close();
      await adminQuery(`drop schema ${neighbour}, ${schema} cascade`);
    }
  });

  it("the store's introspection describes its own schema's tables as Kysely's does, and no other schema's", async () => {
    const neighbour = uniqueName('neighbour');
    const schema = uniqueName('own');
    const notes = `create table notes (id serial primary key, body text not null default '', seq int generated always as identity)`;
    await adminQuery(`create schema ${neighbour} ${notes}`);
    const store = await createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema });
    try {
      await sql
        .raw(`${notes}; comment on column notes.body is 'the text'; create view note_bodies as select body from notes`)
        .execute(store.db);
      const column = { dataTypeSchema: 'pg_catalog', isNullable: false, hasDefaultValue: false, isAutoIncrementing: false };
      const tables = await store.db.introspection.getTables();
      expect(tables.filter((table) => table.name.startsWith('note'))).toEqual([
        { name: 'note_bodies', schema, isView: true, columns: [{ ...column, name: 'body', dataType: 'text', isNullable: true }] },
        {
          name: 'notes',
          schema,
          isView: false,
          columns: [
            { ...column, name: 'id', dataType: 'int4', hasDefaultValue: true, isAutoIncrementing: true },
            { ...column, name: 'body', dataType: 'text', hasDefaultValue: true, comment: 'the text' },
            { ...column, name: 'seq', dataType: 'int4', isAutoIncrementing: true },
          ],
        },
      ]);
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
      expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
      expect((await store.db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name)).toContain(
        'kysely_migration',
      );
      expect(await store.db.introspection.getSchemas()).toEqual([{ name: schema }]);
    } finally {
      await store.close();
      await adminQuery(`drop schema ${neighbour}, ${schema} cascade`);
    }
  });

  // Kysely's listing looked every schema up by name: one dropped after the listing's snapshot failed the start.
  it('starts while another application creates and drops schemas', async () => {
    const churn = await churnSchemas(uniqueName('churn'));
    try {
      for (let i = 0; i < 3; i++) {
        const schema = uniqueName('own');
        const store = await createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema });
        expect(store.migrations).toEqual(ALL_MIGRATIONS);
        await store.close();
        await adminQuery(`drop schema ${schema} cascade`);
      }
      expect(churn.cycles()).toBeGreaterThan(0);
    } finally {
      await churn.stop();
    }
  }, 60_000);
});

/** Another application creating a schema with tables and dropping it, over and over until stopped; answers once a first cycle is done. */
async function churnSchemas(prefix: string): Promise<{ cycles(): number; stop(): Promise<void> }> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  let cycles = 0;
  let stopped = false;
  const cycle = async () => {
    const schema = `${prefix}_${cycles}`;
    const tables = Array.from({ length: 20 }, (_, i) => `create table t${i} (id serial primary key, a text, b integer)`);
    await client.query(`create schema ${schema} ${tables.join(' ')}`);
    await client.query(`drop schema ${schema} cascade`);
    cycles++;
  };
  await cycle();
  const running = (async () => {
    while (!stopped) await cycle();
  })();
  running.catch(() => undefined); // handled: `stop` answers its failure
  return {
    cycles: () => cycles,
    stop: async () => {
      stopped = true;
      await running.finally(() => client.end());
    },
  };
}
