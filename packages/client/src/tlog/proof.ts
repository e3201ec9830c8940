import { base64Decode, base64Encode } from '../bytes.js';
import { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint.js';
import { TlogError } from './errors.js';
import { HASH_SIZE, leafHash, verifyInclusion, type Hash } from './merkle.js';
import type { NoteVerifier } from './note.js';

/**
 * c2sp.org/tlog-proof: a self-contained, offline-verifiable proof that an entry is in a log, as the
 * text kept in a `.tlog-proof` file next to the data it covers.
 */

export interface TlogProof {
  /** Opaque, unauthenticated application data (the `extra` line). */
  extra?: Uint8Array;
  index: number;
  /** Inclusion proof, from the leaf's sibling up to the root's child. */
  path: Hash[];
  /** The signed checkpoint, verbatim, cosignatures included. */
  checkpoint: string;
}

const HEADER = 'c2sp.org/tlog-proof@v1';
const HASH_LINE = /^[A-Za-z0-9+/]{43}=$/;

export function parseTlogProof(text: string): TlogProof {
  const lines = text.split('\n');
  if (lines[0] !== HEADER) throw new TlogError(`tlog-proof: the first line must be ${HEADER}`);
  let at = 1;
  const extra = lines[at]?.startsWith('extra ') ? base64Decode(lines[at++]!.slice('extra '.length)) : undefined;
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines[at++] ?? '')?.[1];
  if (index === undefined || !Number.isSafeInteger(Number(index))) throw new TlogError('tlog-proof: missing or malformed index line');
  const path: Hash[] = [];
  for (; lines[at] !== ''; at += 1) {
    const line = lines[at];
    if (line === undefined) throw new TlogError('tlog-proof: no empty line before the checkpoint');
    if (!HASH_LINE.test(line)) throw new TlogError(`tlog-proof: malformed proof hash ${JSON.stringify(line)}`);
    path.push(base64Decode(line));
  }
  return { ...(extra ? { extra } : {}), index: Number(index), path, checkpoint: lines.slice(at + 1).join('\n') };
}

export function formatTlogProof({ extra, index, path, checkpoint }: TlogProof): string {
  const lines = [HEADER, ...(extra ? [`extra ${base64Encode(extra)}`] : []), `index ${index}`, ...path.map(base64Encode)];
  return `${lines.join('\n')}\n\n${checkpoint}`;
}

export interface VerifiedTlogProof {
  index: number;
  checkpoint: VerifiedCheckpoint;
}

/**
 * The tlog-proof verification steps: the checkpoint is signed by the log's key for its origin (plus any
 * trusted witness keys, whose cosignatures are checked, others ignored), and the inclusion proof binds
 * SHA-256(0x00 ‖ entry) at the proof's index to the checkpoint's root. `origin`, when given, must be
 * the checkpoint's. Throws `TlogError` saying what failed.
 */
export async function verifyTlogProof(
  proof: string | TlogProof,
  entry: Uint8Array,
  verifiers: readonly NoteVerifier[],
  { origin }: { origin?: string } = {},
): Promise<VerifiedTlogProof> {
  const parsed = typeof proof === 'string' ? parseTlogProof(proof) : proof;
  const checkpoint = await verifyCheckpoint(parsed.checkpoint, verifiers);
  if (origin !== undefined && checkpoint.origin !== origin)
    throw new TlogError(`tlog-proof: checkpoint origin ${checkpoint.origin}, expected ${origin}`);
  if (parsed.path.some((hash) => hash.length !== HASH_SIZE)) throw new TlogError('tlog-proof: a proof hash is not 32 bytes');
  if (!(await verifyInclusion(await leafHash(entry), parsed.index, checkpoint.size, parsed.path, checkpoint.root)))
    throw new TlogError(`tlog-proof: the entry is not at index ${parsed.index} of the tree of size ${checkpoint.size}`);
  return { index: parsed.index, checkpoint };
}
