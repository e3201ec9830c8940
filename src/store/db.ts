import { importOnce } from '../core/import-once.js';
import { Kysely, Migrator, sql, type Logger } from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.js';
import { openSqlite } from './sqlite.js';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';

export type Engine = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<DB>;
  engine: Engine;
  /** Every migration the database has, in order; the last is its schema version. */
  migrations: string[];
  /** The migrations this start applied (none when the database was up to date). */
  migrated: string[];
  ping(): Promise<boolean>;
  /**
   * Why this instance cannot write to its own database, or undefined when it can: SQLite's code
   * (SQLITE_FULL) after a write failed for want of disk, until a write succeeds again. Postgres'
   * disk is the database server's, shared by every instance: `ping` answers for it.
   */
  writeFailure(): string | undefined;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Postgres URL; without it the store is SQLite at `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath: string;
  /** Postgres schema to use (tests isolate themselves in a fresh schema). */
  schema?: string;
  /** false: leave the schema as it is (another process of the deployment migrated it). */
  migrate?: boolean;
  /** Postgres: a query unanswered this long ends its connection (SVC_DB_QUERY_TIMEOUT_MS); none while migrating. */
  queryTimeoutMs?: number;
  /** Called with every statement the store runs, its start-up included (Kysely's query log). */
  log?: Logger;
}

/** The Postgres driver, configured as svc reads it; loaded only for a Postgres store: an SQLite deployment never needs it (RSS). */
export const loadPg = importOnce(async () => {
  const { default: pg } = await import('pg');
  // Unix ms timestamps are stored as bigint; they fit a double exactly, so read them as numbers.
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  return pg;
});

/**
 * Connection-level failures (socket errors, Postgres' connection and shutdown classes, too many
 * connections, a busy or full SQLite file): the database is away, not the request wrong.
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const OUTAGE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Is this error the database being unavailable (answered 503, retried by clients) rather than a fault of svc's? */
export function isDatabaseOutage(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (OUTAGE_CODES.has(code) || code.startsWith('08') || /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN)/.test(code))
  )
    return true;
  return typeof message === 'string' && OUTAGE_MESSAGES.test(message);
}

/** How long a request waits for a new database connection before it is answered 503 `store_unavailable`. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** How long a query may go unanswered; 0 while migrations run (an index build may take minutes). */
export interface QueryBound {
  ms: number;
}

type PgClient = import('pg').PoolClient & { connection?: { stream?: { destroy(): void } } };

/**
 * A query the server has not answered within `bound.ms` ends its connection. Without this a network black hole holds
 * the request (and, inside a transaction, the rows it locked) for as long as TCP keepalive takes to notice: the
 * driver's own `query_timeout` only abandons the query and hands the connection back mid-query, still in its
 * transaction. Ending the socket fails every query on it with "Connection terminated" (answered 503, an outage), the
 * pool discards the client, and the server rolls back whatever that connection had open once it sees the close.
 */
function boundQueries(client: PgClient, bound: QueryBound): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const pending = query(...args);
    if (bound.ms === 0 || !(pending instanceof Promise)) return pending;
    const timer = setTimeout(() => client.connection?.stream?.destroy(), bound.ms);
    return pending.finally(() => clearTimeout(timer));
  }) as PgClient['query'];
}

export async function postgresDialect(url: string, schema?: string, bound: QueryBound = { ms: 0 }): Promise<OwnSchemaPostgresDialect> {
  const options = schema ? `-c search_path=${schema}` : undefined;
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString: url, max: 10, options, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // A connection the server drops (restart, network cut, reset) is reported as an `error` event: on the
  // pool while it is idle (and removed), on the client itself while it is checked out (its queries
  // fail, answered 503, and the pool discards it on release). Unhandled, either event would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    boundQueries(client, bound);
  });
  return new OwnSchemaPostgresDialect({ pool }, schema);
}

/** Opens the database and (unless told not to) applies every pending migration before returning. */
export async function createStore(options: StoreOptions): Promise<Store> {
  const engine: Engine = options.databaseUrl ? 'postgres' : 'sqlite';
  if (engine === 'postgres' && options.schema) await ensureSchema(options.databaseUrl!, options.schema);
  const sqlite = engine === 'sqlite' ? openSqlite(options.sqlitePath) : undefined;
  const bound: QueryBound = { ms: 0 };
  const dialect = sqlite?.dialect ?? (await postgresDialect(options.databaseUrl!, options.schema, bound));
  const db = new Kysely<DB>({ dialect, log: options.log });
  const migrator = await migratorFor(db, engine, options.schema);
  const migrated = options.migrate === false ? [] : await migrate(db, migrator);
  const applied = (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
  bound.ms = options.queryTimeoutMs ?? 0;
  return {
    db,
    engine,
    migrations: applied,
    migrated,
    ping: async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    writeFailure: () => sqlite?.writes.check(),
    close: () => db.destroy(),
  };
}

async function migratorFor(db: Kysely<DB>, engine: Engine, schema: string | undefined): Promise<Migrator> {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Its bookkeeping tables are named with their schema, the one the dialect's introspection is limited to
    // (own-schema-introspector.ts): with another schema of the database first on the search path, or holding
    // tables of the same names, the Migrator would otherwise read or skip creating the wrong ones.
    ...(engine === 'postgres' ? { migrationTableSchema: schema ?? (await currentSchema(db)) } : {}),
  });
}

/** Applies every pending migration, answering the names of those it applied. */
async function migrate(db: Kysely<DB>, migrator: Migrator): Promise<string[]> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    // The cause keeps the driver's error code: a full disk at start-up is told apart (exit 23).
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error | undefined)?.message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The schema unqualified names resolve to (the first of search_path): where svc's tables live. */
async function currentSchema(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]!.schema;
}

async function ensureSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
}
