/**
 * The transparency log (issue 36): appends per second through the sequencer (SQLite; Postgres with DATABASE_URL), the
 * latency an append adds to a logged answer (against a durable one-row insert, the floor of any acknowledged write),
 * the time from signing to a checkpoint covering the entry, the size of a .tlog-proof at 10⁶ entries, and the storage
 * per million entries. Anchor: Trillian Tessera's ~1,500 writes/s (POSIX) and ~300 writes/s (MySQL) on a small VM.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { BackgroundErrors } from '../src/core/background.js';
import { systemClock } from '../src/core/clock.js';
import { createStore, type Store } from '../src/store/db.js';
import { TlogRepo } from '../src/store/repos/tlog.js';
import { TransparencyLog } from '../src/tlog/log.js';
import { EMPTY_TREE_HASH, inclusionProof } from '../src/tlog/merkle.js';
import { noteSigner } from '../src/core/signed-note.js';

const TESSERA_POSIX_WRITES_S = 1500;
const TESSERA_MYSQL_WRITES_S = 300;
const APPENDS = Number(process.env.BENCH_TLOG_APPENDS ?? 20_000);
const CONCURRENCY = 256;
const { privateKey } = generateKeyPairSync('ed25519');
const signer = noteSigner('bench.example/log', privateKey);

/** An entry the size of a real receipt (~420 bytes of canonical JSON), signed as receipts are. */
const entryFor = (index: number) => {
  const body = `{"as_of":1795348800,"issued_at":1795348800,"issuer":"bench.example","kid":"${'k'.repeat(43)}","log":{"index":${index},"origin":"bench.example/log"},"request_hash":"sha256-${'r'.repeat(43)}","response_hash":"sha256-${'s'.repeat(43)}","sources":["coingecko"],"v":1`;
  return `${body},"sig":"ed25519-${sign(null, Buffer.from(body), privateKey).toString('base64url')}"}`;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

async function appendsPerSecond(log: TransparencyLog) {
  const latencies: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < APPENDS) {
        next++;
        const t0 = performance.now();
        await log.append((index) => ({ entry: entryFor(index), value: index }));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    appends: APPENDS,
    concurrency: CONCURRENCY,
    appends_per_s: Math.round(APPENDS / seconds),
    append_p50_ms: round(percentile(latencies, 0.5)),
    append_p99_ms: round(percentile(latencies, 0.99)),
  };
}

/**
 * One append at a time: what a logged answer waits for beyond the unlogged one (signing is the same). Interleaved with
 * it, the floor under any acknowledged write: a one-row insert committed on its own (on Postgres, a WAL flush).
 */
async function addedLatency(log: TransparencyLog, store: Store) {
  await sql`create table bench_commit_floor (n integer)`.execute(store.db);
  const appends: number[] = [];
  const inserts: number[] = [];
  for (let i = 0; i < 500; i++) {
    let t0 = performance.now();
    await log.append((index) => ({ entry: entryFor(index), value: index }));
    appends.push(performance.now() - t0);
    t0 = performance.now();
    await sql`insert into bench_commit_floor (n) values (${i})`.execute(store.db);
    inserts.push(performance.now() - t0);
  }
  appends.sort((a, b) => a - b);
  inserts.sort((a, b) => a - b);
  return {
    added_p50_ms: round(percentile(appends, 0.5)),
    added_p99_ms: round(percentile(appends, 0.99)),
    durable_insert_p50_ms: round(percentile(inserts, 0.5)),
    durable_insert_p99_ms: round(percentile(inserts, 0.99)),
  };
}

/** Appends at ~200/s with the integrator running every 1 s; for each, the time until a checkpoint covers it. */
async function signingToCheckpoint(log: TransparencyLog, repo: TlogRepo) {
  log.start();
  const waits: number[] = [];
  const pending: { index: number; at: number }[] = [];
  const stopAt = performance.now() + 5_000;
  const poller = (async () => {
    while (performance.now() < stopAt + 3_000 || pending.length > 0) {
      const size = (await repo.latestCheckpoint())?.size ?? 0;
      while (pending.length > 0 && pending[0]!.index < size) waits.push(performance.now() - pending.shift()!.at);
      if (performance.now() > stopAt + 10_000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  while (performance.now() < stopAt) {
    const index = await log.append((i) => ({ entry: entryFor(i), value: i }));
    pending.push({ index, at: performance.now() });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await poller;
  await log.stop();
  waits.sort((a, b) => a - b);
  return {
    interval_ms: 1000,
    samples: waits.length,
    p50_ms: Math.round(percentile(waits, 0.5)),
    p99_ms: Math.round(percentile(waits, 0.99)),
  };
}

async function storageBytes(store: Store, sqlitePath: string): Promise<number> {
  if (store.engine === 'sqlite') return statSync(sqlitePath).size + (statSync(`${sqlitePath}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const { rows } = await sql<{
    bytes: string;
  }>`select sum(pg_total_relation_size(c.oid))::text as bytes from pg_class c where c.relname in ('tlog_entries','tlog_hashes','tlog_checkpoints','tlog_size') and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(
    store.db,
  );
  return Number(rows[0]!.bytes);
}

/** A log on a fresh SQLite file, or on Postgres (a schema of its own) with `databaseUrl`; integrated once `start`ed. */
export async function openLog(databaseUrl: string | undefined, name = 'tlog') {
  const sqlitePath = join(mkdtempSync(join(tmpdir(), 'svc-bench-tlog-')), 'svc.db');
  const store = await createStore({ sqlitePath, ...(databaseUrl ? { databaseUrl, schema: `bench_${name}_${process.pid}` } : {}) });
  const repo = new TlogRepo(store.db, store.engine);
  const log = new TransparencyLog({
    repo,
    signer,
    clock: systemClock,
    background: new BackgroundErrors(() => undefined),
    intervalMs: 1000,
    witnesses: [],
    witnessQuorum: 0,
  });
  return { store, repo, log, sqlitePath };
}

async function onEngine(databaseUrl: string | undefined) {
  const { store, repo, log, sqlitePath } = await openLog(databaseUrl);
  try {
    const before = await storageBytes(store, sqlitePath);
    const throughput = await appendsPerSecond(log);
    await log.integrate();
    const size = await repo.size();
    const perMillion = ((await storageBytes(store, sqlitePath)) - before) * (1_000_000 / size);
    return {
      ...throughput,
      vs_tessera_posix: round(throughput.appends_per_s / TESSERA_POSIX_WRITES_S),
      vs_tessera_mysql: round(throughput.appends_per_s / TESSERA_MYSQL_WRITES_S),
      added_latency: await addedLatency(log, store),
      signing_to_checkpoint: await signingToCheckpoint(log, repo),
      storage_mb_per_million_entries: Math.round(perMillion / 1_048_576),
    };
  } finally {
    await store.close();
  }
}

/** A .tlog-proof at 10⁶ entries: the hash count depends only on the index and size (the hashes' values do not matter). */
async function proofSize() {
  const size = 1_000_000;
  const hashes = await inclusionProof(size, 123_456, async (indexes) => indexes.map(() => EMPTY_TREE_HASH));
  const checkpoint = `bench.example/log\n${size}\n${EMPTY_TREE_HASH.toString('base64')}\n\n— bench.example/log ${'A'.repeat(92)}\n`;
  const text = ['c2sp.org/tlog-proof@v1', 'index 123456', ...hashes.map((h) => h.toString('base64')), '', checkpoint].join('\n');
  return { entries: size, proof_hashes: hashes.length, tlog_proof_bytes: Buffer.byteLength(text) };
}

export async function transparencyLog() {
  return {
    sqlite: await onEngine(undefined),
    ...(process.env.DATABASE_URL ? { postgres: await onEngine(process.env.DATABASE_URL) } : {}),
    proof_at_1e6: await proofSize(),
  };
}
