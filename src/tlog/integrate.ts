import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { IntegrationResult, IntegrationState } from '../store/repos/tlog.js';
import { leafHash, storedHashCount, storedHashesFor, treeHash, type Hash, type HashReader } from './merkle.js';
import { checkpointBody, signNote, type NoteSigner } from '../core/signed-note.js';

/**
 * Entries one integration step takes at most: a step's hashes and checkpoint are written in one transaction, which on
 * SQLite holds the store's one connection (and, better-sqlite3 being synchronous, the event loop) while it writes.
 */
export const MAX_INTEGRATE = 256;

/**
 * Entries hashed between two yields to the event loop. On SQLite every query of a step answers synchronously, so a
 * step that never yielded would run whole in one turn of the loop, with every answer (logged or not) waiting for it.
 */
const HASHED_PER_TURN = 32;

/** What a step reads and writes: the log's rows (TlogRepo). */
export interface IntegrationStore {
  integrationState(): Promise<IntegrationState>;
  entries(from: number, to: number): Promise<string[]>;
  readHashes(indexes: number[]): Promise<Hash[]>;
  commitIntegration(step: IntegrationResult): Promise<boolean>;
}

/** A reader over the stored hashes plus those this step computed (indexes from `base` on), not yet written. */
function overlayReader(stored: HashReader, base: number, fresh: Hash[]): HashReader {
  return async (indexes) => {
    const old = indexes.filter((index) => index < base);
    const fromStore = old.length > 0 ? await stored(old) : [];
    let next = 0;
    return indexes.map((index) => (index < base ? fromStore[next++]! : fresh[index - base]!));
  };
}

/** The hashes entries `from` … add (storage order from storedHashCount(from)) and the root of the tree they end. */
async function hashEntries(store: IntegrationStore, from: number, entries: string[]): Promise<{ hashes: Hash[]; root: Hash }> {
  const hashes: Hash[] = [];
  const read = overlayReader((indexes) => store.readHashes(indexes), storedHashCount(from), hashes);
  for (const [i, entry] of entries.entries()) {
    if (i > 0 && i % HASHED_PER_TURN === 0) await yieldToEventLoop();
    hashes.push(...(await storedHashesFor(from + i, leafHash(Buffer.from(entry)), read)));
  }
  return { hashes, root: await treeHash(from + entries.length, read) };
}

/**
 * One integration step: the hashes of the entries appended since the last checkpoint (up to MAX_INTEGRATE of them),
 * the new tree's root and a checkpoint signed over it, all computed from rows read outside any transaction (entries
 * and stored hashes never change once written), then written in one short transaction only if the last checkpoint is
 * still the one the step extended. Every checkpoint is computed from the same stored hashes, so any two are
 * consistent. Answers the new checkpoint's size and the entries still waiting; undefined when there was nothing to
 * integrate or another instance integrated meanwhile.
 */
export async function integrateStep(
  store: IntegrationStore,
  signer: NoteSigner,
  clock: () => number,
): Promise<{ size: number; waiting: number } | undefined> {
  const { size, last } = await store.integrationState();
  const from = last?.size ?? 0;
  const to = Math.min(size, from + MAX_INTEGRATE);
  // The empty log still gets its checkpoint (size 0), so /log/checkpoint answers from the start.
  if (last && to <= from) return undefined;
  const entries = await store.entries(from, to);
  if (entries.length !== to - from) throw new Error(`transparency log: entries ${from}…${to - 1} are not all stored`);
  const { hashes, root } = await hashEntries(store, from, entries);
  const note = signNote(signer, checkpointBody(signer.name, to, root));
  await yieldToEventLoop();
  const checkpoint = { size: to, note, signed_at: clock(), cosignatures: '' };
  const written = await store.commitIntegration({ extends: last?.size, firstHashIndex: storedHashCount(from), hashes, checkpoint });
  return written ? { size: to, waiting: size - to } : undefined;
}
