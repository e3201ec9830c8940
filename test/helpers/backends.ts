import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createStore, loadPg, type Store } from '../../src/store/db.js';

/**
 * The storage and bus backends a suite runs against: SQLite / in-process always, Postgres / Redis
 * whenever DATABASE_URL / REDIS_URL are set. In CI (CI=true) both must be set: a missing backend
 * fails the run instead of quietly skipping the suites that need it (.ci/run starts both).
 */
if (process.env.CI === 'true') {
  const missing = ['DATABASE_URL', 'REDIS_URL'].filter((name) => !process.env[name]);
  if (missing.length)
    throw new Error(
      `CI=true but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set: the Postgres/Redis suites would not run`,
    );
}

export const STORE_BACKENDS = ['sqlite', ...(process.env.DATABASE_URL ? ['postgres'] : [])] as const;
export const BUS_BACKENDS = ['memory', ...(process.env.REDIS_URL ? ['redis'] : [])] as const;

/** Backends on which several instances share one database (two-instance tests run only there). */
export const SHARED_STORE_BACKENDS = STORE_BACKENDS.filter((b) => b === 'postgres');

export type StoreBackend = (typeof STORE_BACKENDS)[number];
export type BusBackend = (typeof BUS_BACKENDS)[number];

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** A fresh, migrated store: a temp SQLite file, or its own schema (named, or a new one) in the shared Postgres. */
export function openStore(backend: StoreBackend, schema = uniqueName('t')): Promise<Store> {
  return backend === 'postgres'
    ? createStore({ databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema })
    : createStore({ sqlitePath: join(mkdtempSync(join(tmpdir(), 'svc-store-')), 'svc.db') });
}

/** Runs one statement on the test database (DATABASE_URL) in a connection of its own; answers its rows. */
export async function adminQuery<Row>(statement: string, parameters?: unknown[]): Promise<Row[]> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(statement, parameters)).rows as Row[];
  } finally {
    await client.end();
  }
}
