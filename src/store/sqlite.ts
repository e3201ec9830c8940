import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type SqliteDialectConfig } from 'kysely';

/** SQLite's answers that mean the disk under the data directory is full or failing, not the query wrong. */
const DISK_TROUBLE = /^SQLITE_(FULL|IOERR)/;

/**
 * Whether this instance can write to its SQLite file. A statement that fails for want of disk marks
 * it unwritable; `check` (readiness) then tries a write of its own, the file header's user_version
 * rewritten as it is, and the mark clears as soon as one succeeds: the instance is ready again
 * without waiting for traffic a balancer no longer sends it.
 */
export class SqliteWrites {
  private failure?: string;

  constructor(private readonly database: SQLite.Database) {}

  observe(error: unknown): void {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && DISK_TROUBLE.test(code)) this.failure = code;
  }

  /** undefined while writes succeed; else the SQLite code of the last failed one (SQLITE_FULL). */
  check(): string | undefined {
    // A transaction of the app's is open between two of its awaits: a write now would join it.
    if (!this.failure || this.database.inTransaction) return this.failure;
    try {
      this.database.pragma(`user_version = ${Number(this.database.pragma('user_version', { simple: true }))}`);
      this.failure = undefined;
    } catch (error) {
      this.observe(error);
    }
    return this.failure;
  }
}

/** The SQLite file at `path` (WAL), with what its writes tell about the disk. */
export function openSqlite(path: string): { dialect: SqliteDialect; writes: SqliteWrites } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  const writes = new SqliteWrites(database);
  const config: SqliteDialectConfig = { database: { prepare: preparedOnce(database), close: () => database.close() } };
  const driver = new ObservedSqliteDriver(config, database, writes);
  const dialect = new (class extends SqliteDialect {
    override createDriver() {
      return driver;
    }
  })(config);
  return { dialect, writes };
}

/**
 * Kysely's driver, with two differences. Every failed statement is shown to `writes`. And a rollback
 * is skipped when SQLite has already rolled the transaction back itself (it does on SQLITE_FULL and
 * some I/O errors): Kysely's ROLLBACK would then fail with "cannot rollback - no transaction is
 * active", and that error, not the one that matters, would reach the log and the client.
 */
class ObservedSqliteDriver extends SqliteDriver {
  private connection?: DatabaseConnection;

  constructor(
    config: SqliteDialectConfig,
    private readonly database: SQLite.Database,
    private readonly writes: SqliteWrites,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    return (this.connection ??= {
      executeQuery: async <R>(query: CompiledQuery) => {
        try {
          return await inner.executeQuery<R>(query);
        } catch (error) {
          this.writes.observe(error);
          throw error;
        }
      },
      streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => inner.streamQuery<R>(query, chunkSize),
    });
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.database.inTransaction) await super.rollbackTransaction(connection);
  }
}

/**
 * Kysely prepares every query anew; preparing cost about as much as running the query (a seventh of
 * the CPU of opening a session stream). A statement is prepared once per SQL text and reused, unless
 * it is still busy (an unfinished iterator), which gets a fresh one.
 */
function preparedOnce(database: SQLite.Database): (sql: string) => SQLite.Statement {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  return (sql) => {
    const kept = statements.get(sql);
    if (kept && !kept.busy) return kept;
    const statement = database.prepare(sql);
    statements.set(sql, statement);
    return statement;
  };
}
