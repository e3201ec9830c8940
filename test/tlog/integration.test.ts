import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '../../src/store/db.js';
import { TlogRepo } from '../../src/store/repos/tlog.js';
import { integrateStep, type IntegrationStore } from '../../src/tlog/integrate.js';
import { TransparencyLog } from '../../src/tlog/log.js';
import { leafHash, storedHashesFor, treeHash, type Hash } from '../../src/tlog/merkle.js';
import { noteSigner } from '../../src/core/signed-note.js';
import { STORE_BACKENDS, uniqueName, type StoreBackend } from '../helpers/backends.js';
import { logOver } from '../helpers/tlog.js';

const signer = noteSigner('integration.test/log', generateKeyPairSync('ed25519').privateKey);
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openRepo(backend: StoreBackend): Promise<TlogRepo> {
  const sqlitePath = join(mkdtempSync(join(tmpdir(), 'svc-tlog-')), 'svc.db');
  const store = await createStore(
    backend === 'postgres' ? { databaseUrl: process.env.DATABASE_URL, sqlitePath: '', schema: uniqueName('tlog') } : { sqlitePath },
  );
  stores.push(store);
  return new TlogRepo(store.db, store.engine);
}

const appendMany = (log: TransparencyLog, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => log.append((index) => ({ entry: JSON.stringify({ i, index }), value: index }))));

/** The roots of the first `size` entries as stored, recomputed here: every checkpoint must carry its size's. */
async function expectCheckpointsMatchEntries(repo: TlogRepo): Promise<void> {
  const entries = await repo.entries(0, await repo.size());
  const stored: Hash[] = [];
  const read = async (indexes: number[]) => indexes.map((i) => stored[i]!);
  for (const [n, entry] of entries.entries()) stored.push(...(await storedHashesFor(n, leafHash(Buffer.from(entry)), read)));
  for (const size of await repo.checkpointSizes()) {
    const note = (await repo.checkpointAt(size))!.note;
    expect(note.split('\n')[2], `checkpoint ${size}`).toBe((await treeHash(size, read)).toString('base64'));
  }
}

describe.each(STORE_BACKENDS)('integration on %s', (backend) => {
  it('lets appends commit while it hashes a backlog, instead of holding the store until the backlog is done', async () => {
    const repo = await openRepo(backend);
    const log = logOver(repo, signer);
    await appendMany(log, 2_048); // eight integration steps
    const integrated = log.integrate().then(() => 'integrated');
    const appended = appendMany(log, 1).then(() => 'appended');
    expect(await Promise.race([integrated, appended])).toBe('appended');
    await integrated;
    await log.integrate();
    expect((await repo.latestCheckpoint())?.size).toBe(2_049);
    await expectCheckpointsMatchEntries(repo);
  }, 60_000);

  it('writes nothing, and fails nothing, when the checkpoint it extends was extended meanwhile by another instance', async () => {
    const repo = await openRepo(backend);
    const log = logOver(repo, signer);
    await appendMany(log, 300);
    await log.integrate();
    await appendMany(log, 40);
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let readEntries!: () => void;
    const stalled = new Promise<void>((resolve) => (readEntries = resolve));
    // A step that read the log at size 300, then stalls (a slow instance) before hashing.
    const slow: IntegrationStore = {
      integrationState: () => repo.integrationState(),
      entries: async (from, to) => {
        const entries = await repo.entries(from, to);
        readEntries();
        await paused;
        return entries;
      },
      readHashes: (indexes) => repo.readHashes(indexes),
      commitIntegration: (step) => repo.commitIntegration(step),
    };
    const stale = integrateStep(slow, signer, () => Date.now());
    await stalled;
    await log.integrate(); // the other instance: 300 → 340
    await appendMany(log, 10);
    await log.integrate(); // 340 → 350
    resume();
    expect(await stale).toBeUndefined();
    expect(await repo.checkpointSizes()).toEqual([256, 300, 340, 350]);
    await expectCheckpointsMatchEntries(repo);
  }, 60_000);
});
