import { base64Decode } from '../bytes.js';
import { TlogError } from './errors.js';
import { HASH_SIZE, type Hash } from './merkle.js';
import { verifyNote, type NoteVerifier, type VerifiedNote } from './note.js';

/** c2sp.org/tlog-checkpoint: origin, tree size, root hash, then optional extension lines. */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  extensions: string[];
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Parses a checkpoint's note text (signatures excluded: see `verifyCheckpoint`). */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new TlogError('checkpoint: no final newline');
  const [origin = '', size = '', root = '', ...extensions] = text.slice(0, -1).split('\n');
  if (!origin) throw new TlogError('checkpoint: empty origin line');
  if (!DECIMAL.test(size) || !Number.isSafeInteger(Number(size))) throw new TlogError(`checkpoint: bad tree size ${JSON.stringify(size)}`);
  const hash = /^[A-Za-z0-9+/]{43}=$/.test(root) ? base64Decode(root) : undefined;
  if (hash?.length !== HASH_SIZE) throw new TlogError(`checkpoint: bad root hash ${JSON.stringify(root)}`);
  if (extensions.some((line) => line === '')) throw new TlogError('checkpoint: empty extension line');
  return { origin, size: Number(size), root: hash, extensions };
}

export interface VerifiedCheckpoint extends Checkpoint, VerifiedNote {
  /** The whole signed note as received, cosignatures included (what a `.tlog-proof` embeds). */
  note: string;
}

/**
 * Verifies a signed checkpoint with the given keys (the log's, and any witnesses' the caller trusts;
 * signatures by other keys are ignored) and requires a verified signature by a key named like the
 * origin, the log's own, so that a witness cosignature alone never passes for the log's.
 */
export async function verifyCheckpoint(note: string, verifiers: readonly NoteVerifier[]): Promise<VerifiedCheckpoint> {
  const verified = await verifyNote(note, verifiers);
  const checkpoint = parseCheckpoint(verified.text);
  if (!verified.verifiedBy.some((key) => key.name === checkpoint.origin && key.type === 0x01))
    throw new TlogError(`checkpoint: not signed by a known key of its origin ${checkpoint.origin}`);
  return { ...checkpoint, ...verified, note };
}
