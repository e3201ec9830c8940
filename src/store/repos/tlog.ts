import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../db.js';
import type { DB, TlogCheckpointsTable } from '../schema.js';

/**
 * Postgres advisory lock of integration: a constant of svc's (ASCII "tlog") and the schema's hash, since advisory locks
 * are database-wide and each schema holds its own log.
 */
const INTEGRATION_LOCK = 0x746c6f67;

/** Where integration starts from: the entries appended (size row) and the last checkpoint signed, if any. */
export interface IntegrationState {
  size: number;
  last?: TlogCheckpointsTable;
}

/** What an integration step writes: the hashes it computed (consecutive stored-hash indexes) and the checkpoint over them. */
export interface IntegrationResult {
  /** The size of the checkpoint the step extended (undefined for the empty log's first checkpoint). */
  extends: number | undefined;
  firstHashIndex: number;
  hashes: Buffer[];
  checkpoint: TlogCheckpointsTable;
}

/** Hashes and entries go in in slices: Postgres caps a statement's parameters at 65,535. */
const INSERT_SLICE = 1_000;

async function readHashes(db: Kysely<DB>, indexes: number[]): Promise<Buffer[]> {
  if (indexes.length === 0) return [];
  const rows = await db
    .selectFrom('tlog_hashes')
    .select(['idx', 'hash'])
    .where('idx', 'in', [...new Set(indexes)])
    .execute();
  const byIndex = new Map(rows.map((row) => [Number(row.idx), row.hash]));
  return indexes.map((index) => {
    const hash = byIndex.get(index);
    if (!hash) throw new Error(`transparency log: stored hash ${index} is missing`);
    return Buffer.from(hash);
  });
}

/** The entries `build` answers for `first`, which must be `count` of them. */
function built(count: number, build: (firstIndex: number) => string[], first: number): string[] {
  const entries = build(first);
  if (entries.length !== count) throw new Error(`transparency log: ${entries.length} entries built for ${count} appends`);
  return entries;
}

async function insertSliced<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_SLICE) await insert(rows.slice(i, i + INSERT_SLICE));
}

/**
 * The transparency log's rows (migration 023). The store is the sequencer: an append moves the size row on as it
 * inserts its entries, atomically and under the row's lock (SQLite has one writer), so indexes are consecutive across
 * instances and an append that does not commit leaves no trace. Integration hashes outside any transaction and writes
 * in a short one (under an advisory lock on Postgres) only over the checkpoint it extended, so the tree has one
 * history however many instances sign.
 */
export class TlogRepo {
  /** Postgres: the index this instance's next append expects to take (where its own last append ended), once known. */
  private expectedNext?: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /**
   * Appends `count` entries atomically: `build` gets the first index and answers the entries (the receipts signed with
   * their index). Nothing is visible, and no index is taken, unless the whole batch commits. On Postgres the batch is
   * first tried in one round trip at the index this instance expects (where its own last append ended); when another
   * instance appended meanwhile, nothing is written and the batch is built again under the size row's lock.
   */
  async append(count: number, build: (firstIndex: number) => string[]): Promise<number> {
    const expected = this.expectedNext;
    if (expected !== undefined) {
      this.expectedNext = expected + count; // the next batch may be sent before this one commits
      if (await this.appendAt(expected, built(count, build, expected))) return expected;
    }
    const first = await this.appendLocked(count, build);
    if (this.engine === 'postgres') this.expectedNext = first + count;
    return first;
  }

  /**
   * Appends in flight at once (the sequencer's). On Postgres a batch sent while the one before waits for its commit
   * (the WAL flush) queues on the size row's lock and commits right after it; SQLite commits one at a time anyway.
   */
  get appendsInFlight(): number {
    return this.engine === 'postgres' ? 2 : 1;
  }

  /** Postgres: one statement that takes `first` … only if the size is still `first`, and inserts the entries; answers whether it did. */
  private async appendAt(first: number, entries: string[]): Promise<boolean> {
    const { numAffectedRows } = await sql`
      with taken as (update tlog_size set size = size + ${entries.length} where id = 1 and size = ${first} returning size)
      insert into tlog_entries (idx, entry)
      select ${first} + e.ord - 1, e.entry from taken, unnest(cast(${entries} as text[])) with ordinality as e(entry, ord)`.execute(
      this.db,
    );
    return Number(numAffectedRows) === entries.length;
  }

  /** The batch in one transaction that takes its indexes first: they are known before the entries are built. */
  private appendLocked(count: number, build: (firstIndex: number) => string[]): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const first = await this.takeIndexes(tx, count);
      await insertSliced(
        built(count, build, first).map((entry, i) => ({ idx: first + i, entry })),
        (rows) => tx.insertInto('tlog_entries').values(rows).execute(),
      );
      return first;
    });
  }

  /**
   * Moves the size on by `count` and answers the first index taken, in one statement: the update locks the size row
   * until the transaction ends (SQLite has one writer), so another append waits and takes the indexes after these.
   */
  private async takeIndexes(tx: Transaction<DB>, count: number): Promise<number> {
    const row = await tx
      .updateTable('tlog_size')
      .set({ size: sql`size + ${count}` })
      .where('id', '=', 1)
      .returning('size')
      .executeTakeFirstOrThrow();
    return Number(row.size) - count;
  }

  /**
   * The last checkpoint, then the size: read outside any transaction (the size is at least the checkpoint's, and the
   * entries and hashes below it never change), so an integration step hashes without holding a connection.
   */
  async integrationState(): Promise<IntegrationState> {
    const last = await this.latestCheckpoint();
    return { size: await this.size(), ...(last ? { last } : {}) };
  }

  /**
   * Writes an integration step in one short transaction, only if the log's last checkpoint is still the one the step
   * extended: a step computed from an older state (another instance signed meanwhile) writes nothing, so the tree has
   * one history. On Postgres the check runs under a transaction-scoped advisory lock (one instance at a time); SQLite
   * has one writer. Answers whether the step was written (false: another instance holds the lock or got there first).
   */
  async commitIntegration(step: IntegrationResult): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      if (this.engine === 'postgres') {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(${INTEGRATION_LOCK}, hashtext(current_schema())) as locked`.execute(tx);
        if (!rows[0]?.locked) return false;
      }
      if ((await this.latestCheckpointIn(tx))?.size !== step.extends) return false;
      await insertSliced(
        step.hashes.map((hash, i) => ({ idx: step.firstHashIndex + i, hash })),
        (rows) => tx.insertInto('tlog_hashes').values(rows).execute(),
      );
      await tx.insertInto('tlog_checkpoints').values(step.checkpoint).execute();
      return true;
    });
  }

  readHashes(indexes: number[]): Promise<Buffer[]> {
    return readHashes(this.db, indexes);
  }

  /** Entries `from` … `to - 1`, in order. */
  entries(from: number, to: number): Promise<string[]> {
    return this.entriesIn(this.db, from, to);
  }

  private async entriesIn(db: Kysely<DB>, from: number, to: number): Promise<string[]> {
    const rows = await db
      .selectFrom('tlog_entries')
      .select('entry')
      .where('idx', '>=', from)
      .where('idx', '<', to)
      .orderBy('idx')
      .execute();
    return rows.map((row) => row.entry);
  }

  async size(): Promise<number> {
    const row = await this.db.selectFrom('tlog_size').select('size').where('id', '=', 1).executeTakeFirstOrThrow();
    return Number(row.size);
  }

  latestCheckpoint(): Promise<TlogCheckpointsTable | undefined> {
    return this.latestCheckpointIn(this.db);
  }

  private async latestCheckpointIn(db: Kysely<DB>): Promise<TlogCheckpointsTable | undefined> {
    const row = await db.selectFrom('tlog_checkpoints').selectAll().orderBy('size', 'desc').limit(1).executeTakeFirst();
    return row && { ...row, size: Number(row.size) };
  }

  async checkpointAt(size: number): Promise<TlogCheckpointsTable | undefined> {
    const row = await this.db.selectFrom('tlog_checkpoints').selectAll().where('size', '=', size).executeTakeFirst();
    return row && { ...row, size: Number(row.size) };
  }

  /** The sizes of every checkpoint signed, smallest first. */
  async checkpointSizes(): Promise<number[]> {
    const rows = await this.db.selectFrom('tlog_checkpoints').select('size').orderBy('size').execute();
    return rows.map((row) => Number(row.size));
  }

  /** The latest checkpoint holding at least `quorum` cosignatures (every checkpoint when the quorum is 0). */
  async latestCosigned(quorum: number): Promise<TlogCheckpointsTable | undefined> {
    if (quorum === 0) return this.latestCheckpoint();
    const rows = await this.db
      .selectFrom('tlog_checkpoints')
      .selectAll()
      .where('cosignatures', '!=', '')
      .orderBy('size', 'desc')
      .limit(50)
      .execute();
    const row = rows.find((r) => r.cosignatures.split('\n').length >= quorum);
    return row && { ...row, size: Number(row.size) };
  }

  /** Adds a witness's cosignature line to the checkpoint of `size`, replacing that witness's earlier one (same `— name ` prefix). */
  async addCosignature(size: number, line: string, prefix: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('tlog_checkpoints').select('cosignatures').where('size', '=', size).executeTakeFirst();
      if (!row) return;
      const lines = [...row.cosignatures.split('\n').filter((kept) => kept !== '' && !kept.startsWith(prefix)), line];
      await tx
        .updateTable('tlog_checkpoints')
        .set({ cosignatures: lines.join('\n') })
        .where('size', '=', size)
        .execute();
    });
  }
}
