import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '../../src/store/db.js';
import { TlogRepo } from '../../src/store/repos/tlog.js';
import { TransparencyLog } from '../../src/tlog/log.js';
import { leafHash, storedHashesFor, treeHash, type Hash } from '../../src/tlog/merkle.js';
import { noteSigner } from '../../src/core/signed-note.js';
import { STORE_BACKENDS, uniqueName, type StoreBackend } from '../helpers/backends.js';
import { logOver } from '../helpers/tlog.js';

const signer = noteSigner('durability.test/log', generateKeyPairSync('ed25519').privateKey);
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** Where a test's log lives: an SQLite file or a Postgres schema, opened as often as asked (several instances). */
function place(backend: StoreBackend) {
  const sqlitePath = join(mkdtempSync(join(tmpdir(), 'svc-tlog-')), 'svc.db');
  const schema = uniqueName('tlog');
  return {
    sqlitePath,
    schema,
    open: async () => {
      const store = await createStore(
        backend === 'postgres' ? { databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema } : { sqlitePath },
      );
      stores.push(store);
      return new TlogRepo(store.db, store.engine);
    },
  };
}

const append = (log: TransparencyLog, tag: string) => log.append((index) => ({ entry: JSON.stringify({ tag, index }), value: index }));

/** Every checkpoint signed must be the root of the first `size` entries as stored: then any two are consistent. */
async function expectCheckpointsMatchEntries(repo: TlogRepo, sizes: number[]): Promise<void> {
  const size = await repo.size();
  const entries = await repo.entries(0, size);
  expect(entries).toHaveLength(size);
  const stored: Hash[] = [];
  const read = async (indexes: number[]) => indexes.map((i) => stored[i]!);
  for (const [n, entry] of entries.entries()) stored.push(...(await storedHashesFor(n, leafHash(Buffer.from(entry)), read)));
  for (const checkpointSize of sizes) {
    const row = await repo.checkpointAt(checkpointSize);
    expect(row?.note.split('\n')[2], `checkpoint ${checkpointSize}`).toBe((await treeHash(checkpointSize, read)).toString('base64'));
  }
}

describe.each(STORE_BACKENDS)('the transparency log on %s', (backend) => {
  it('keeps every acknowledged entry across a restart and goes on from the next index', async () => {
    const where = place(backend);
    const first = logOver(await where.open(), signer);
    const before = await Promise.all(Array.from({ length: 300 }, () => append(first, 'before')));
    await first.integrate();
    await stores.splice(0).at(0)!.close();

    const repo = await where.open();
    const second = logOver(repo, signer);
    expect(await append(second, 'after')).toBe(300);
    await second.integrate();
    expect([...before].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    await expectCheckpointsMatchEntries(repo, [300, 301]);
  });

  it('two instances appending and integrating at once take distinct consecutive indexes and sign consistent checkpoints', async () => {
    const where = place(backend);
    // Postgres: two connection pools, as two instances have. SQLite has one writer process: two logs over one store.
    const a = await where.open();
    const b = backend === 'postgres' ? await where.open() : a;
    const [logA, logB] = [logOver(a, signer), logOver(b, signer)];
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async (_, round) => {
        const indexes = await Promise.all([
          ...Array.from({ length: 40 }, () => append(logA, `a${round}`)),
          ...Array.from({ length: 40 }, () => append(logB, `b${round}`)),
        ]);
        await Promise.all([logA.integrate(), logB.integrate()]);
        return indexes;
      }),
    );
    const acknowledged = rounds.flat().sort((x, y) => x - y);
    expect(acknowledged).toEqual(Array.from({ length: 640 }, (_, i) => i));
    await logA.integrate();
    const entries = await a.entries(0, 640);
    for (const index of acknowledged) expect(JSON.parse(entries[index]!).index).toBe(index);
    await expectCheckpointsMatchEntries(a, await a.checkpointSizes());
    expect((await a.latestCheckpoint())?.size).toBe(640);
  }, 60_000);

  it('appends arriving while batches are in flight (two at once on Postgres) take consecutive indexes, each entry at its own', async () => {
    const repo = await place(backend).open();
    const log = logOver(repo, signer);
    const acknowledged: Promise<number>[] = [];
    for (let i = 0; i < 200; i++) {
      acknowledged.push(append(log, `burst${i}`));
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve)); // a new batch starts while others commit
    }
    const indexes = await Promise.all(acknowledged);
    expect([...indexes].sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const entries = await repo.entries(0, 200);
    for (const [i, index] of indexes.entries()) expect(JSON.parse(entries[index]!)).toEqual({ tag: `burst${i}`, index });
    await log.integrate();
    await expectCheckpointsMatchEntries(repo, await repo.checkpointSizes());
  }, 60_000);

  it('loses no acknowledged entry and leaves no hole when the appending process is killed (SIGKILL)', async () => {
    const where = place(backend);
    await where.open();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, 'fixtures/append-until-killed.ts'),
        where.sqlitePath,
        backend === 'postgres' ? process.env.DATABASE_URL! : '',
        where.schema,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const acknowledged: number[] = [];
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        acknowledged.push(...chunk.toString().split('\n').filter(Boolean).map(Number));
        if (acknowledged.length >= 500) resolve();
      });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));

    const repo = await where.open();
    const size = await repo.size();
    expect(size).toBeGreaterThanOrEqual(Math.max(...acknowledged) + 1);
    const entries = await repo.entries(0, size);
    expect(entries).toHaveLength(size);
    for (const index of acknowledged) expect(JSON.parse(entries[index]!).index).toBe(index);
    const log = logOver(repo, signer);
    await log.integrate();
    await expectCheckpointsMatchEntries(repo, await repo.checkpointSizes());
  }, 60_000);
});
