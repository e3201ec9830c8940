import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../db.js';
import type { DB, TlogCheckpointsTable } from '../schema.js';

/** Postgres advisory lock key of integration (any constant unique to svc: ASCII "svctlog1" as a bigint). */
const INTEGRATION_LOCK = 0x737663746c6f6731n;

/** What integration does inside its one transaction: read the entries past the last checkpoint, store hashes, sign. */
export interface IntegrationStep {
  /** Entries appended (size row). */
  size: number;
  /** The last checkpoint signed, if any. */
  last?: TlogCheckpointsTable;
  entries: (from: number, to: number) => Promise<string[]>;
  readHashes: (indexes: number[]) => Promise<Buffer[]>;
  /** Stores hashes at consecutive indexes from `from` and the checkpoint signed over them. */
  commit: (from: number, hashes: Buffer[], checkpoint: TlogCheckpointsTable) => Promise<void>;
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

async function insertSliced<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_SLICE) await insert(rows.slice(i, i + INSERT_SLICE));
}

/**
 * The transparency log's rows (migration 023). The store is the sequencer: an append locks the size row (Postgres
 * `FOR UPDATE`; SQLite has one writer), so indexes are consecutive across instances and an append that does not commit
 * leaves no trace. Integration runs under a transaction-scoped advisory lock on Postgres so that one instance at a
 * time extends the tree and signs.
 */
export class TlogRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: Engine,
  ) {}

  /**
   * Appends `count` entries in one transaction: `build` gets the first index and answers the entries (the receipts
   * signed with their index). Nothing is visible, and no index is taken, unless the whole batch commits.
   */
  async append(count: number, build: (firstIndex: number) => string[]): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const first = await this.lockedSize(tx);
      const entries = build(first);
      if (entries.length !== count) throw new Error(`transparency log: ${entries.length} entries built for ${count} appends`);
      await insertSliced(
        entries.map((entry, i) => ({ idx: first + i, entry })),
        (rows) => tx.insertInto('tlog_entries').values(rows).execute(),
      );
      await tx
        .updateTable('tlog_size')
        .set({ size: first + count })
        .where('id', '=', 1)
        .execute();
      return first;
    });
  }

  private async lockedSize(tx: Transaction<DB>): Promise<number> {
    const query = tx.selectFrom('tlog_size').select('size').where('id', '=', 1);
    const row = await (this.engine === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
    return Number(row.size);
  }

  /** Runs one integration step under the integration lock; undefined when another instance holds it. */
  async integrate<T>(step: (state: IntegrationStep) => Promise<T>): Promise<T | undefined> {
    return this.db.transaction().execute(async (tx) => {
      if (this.engine === 'postgres') {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${INTEGRATION_LOCK}) as locked`.execute(tx);
        if (!rows[0]?.locked) return undefined;
      }
      const { size } = await tx.selectFrom('tlog_size').select('size').where('id', '=', 1).executeTakeFirstOrThrow();
      return step({
        size: Number(size),
        last: await this.latestCheckpointIn(tx),
        entries: (from, to) => this.entriesIn(tx, from, to),
        readHashes: (indexes) => readHashes(tx, indexes),
        commit: async (from, hashes, checkpoint) => {
          await insertSliced(
            hashes.map((hash, i) => ({ idx: from + i, hash })),
            (rows) => tx.insertInto('tlog_hashes').values(rows).execute(),
          );
          await tx.insertInto('tlog_checkpoints').values(checkpoint).execute();
        },
      });
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
