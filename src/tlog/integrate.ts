import type { IntegrationStep } from '../store/repos/tlog.js';
import { leafHash, storedHashCount, storedHashesFor, treeHash, type Hash, type HashReader } from './merkle.js';
import { checkpointBody, signNote, type NoteSigner } from '../core/signed-note.js';

/**
 * Entries one integration step takes at most. The step holds its transaction while it hashes, and on SQLite that is
 * the store's one connection: every append (and every other query) waits behind it. On a 2-core machine at load 20,
 * 4,096 held it for 0.2–0.5 s and 256 for 22–120 ms (a sixteenth of the work); appends queued meanwhile go between steps.
 */
export const MAX_INTEGRATE = 256;

/** A reader over the stored hashes plus those this step computed (indexes from `base` on), not yet written. */
function overlayReader(stored: HashReader, base: number, fresh: Hash[]): HashReader {
  return async (indexes) => {
    const old = indexes.filter((index) => index < base);
    const fromStore = old.length > 0 ? await stored(old) : [];
    let next = 0;
    return indexes.map((index) => (index < base ? fromStore[next++]! : fresh[index - base]!));
  };
}

/**
 * One integration step inside the repo's integration transaction: the hashes of the entries appended since the
 * last checkpoint (up to MAX_INTEGRATE of them), the new tree's root, and a checkpoint signed over it. Every
 * checkpoint is computed from the same stored hashes, so any two are consistent. Answers the new checkpoint's size
 * and the entries still waiting, or undefined when there was nothing to integrate.
 */
export async function integrateStep(
  step: IntegrationStep,
  signer: NoteSigner,
  nowMs: number,
): Promise<{ size: number; waiting: number } | undefined> {
  const from = step.last?.size ?? 0;
  const to = Math.min(step.size, from + MAX_INTEGRATE);
  // The empty log still gets its checkpoint (size 0), so /log/checkpoint answers from the start.
  if (step.last && to === from) return undefined;
  const base = storedHashCount(from);
  const fresh: Hash[] = [];
  const read = overlayReader(step.readHashes, base, fresh);
  const entries = await step.entries(from, to);
  if (entries.length !== to - from) throw new Error(`transparency log: entries ${from}…${to - 1} are not all stored`);
  for (const [i, entry] of entries.entries()) fresh.push(...(await storedHashesFor(from + i, leafHash(Buffer.from(entry)), read)));
  const root = await treeHash(to, read);
  const note = signNote(signer, checkpointBody(signer.name, to, root));
  await step.commit(base, fresh, { size: to, note, signed_at: nowMs, cosignatures: '' });
  return { size: to, waiting: step.size - to };
}
