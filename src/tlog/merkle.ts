import { createHash } from 'node:crypto';

/**
 * RFC 6962 §2.1 Merkle trees over a log's entries, with hashes stored as golang.org/x/mod/sumdb/tlog stores them:
 * every complete subtree's hash once, at a dense index (about two hashes per entry), so the hash of the tree at any
 * size and any inclusion or consistency proof is a handful of reads. Indexes and sizes are JS numbers (exact below 2^53).
 */
export type Hash = Buffer;

export const HASH_SIZE = 32;

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_TREE_HASH: Hash = createHash('sha256').digest();

/** Reads stored hashes by index, answering them in the order asked. */
export type HashReader = (indexes: number[]) => Promise<Hash[]>;

export const leafHash = (entry: Uint8Array): Hash =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(entry)
    .digest();

export const nodeHash = (left: Hash, right: Hash): Hash =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();

/** Bit arithmetic on numbers past 2^32: JS's bitwise operators are 32-bit. */
const shiftRight = (n: number, bits: number): number => Math.floor(n / 2 ** bits);

const trailingOnes = (n: number): number => {
  let count = 0;
  for (let x = n; x % 2 === 1; x = shiftRight(x, 1)) count++;
  return count;
};

/** The largest power of two below n (n > 1), with its log2. */
function largestPowerBelow(n: number): { k: number; level: number } {
  let level = 0;
  while (2 ** (level + 1) < n) level++;
  return { k: 2 ** level, level };
}

/** Where the hash of the subtree at `level` (leaves = 0) and position `n` in that level is stored. */
export function storedHashIndex(level: number, n: number): number {
  let m = n;
  for (let l = level; l > 0; l--) m = 2 * m + 1;
  let index = 0;
  for (; m > 0; m = shiftRight(m, 1)) index += m;
  return index + level;
}

/** How many hashes are stored for a tree of `size` entries. */
export function storedHashCount(size: number): number {
  if (size === 0) return 0;
  return storedHashIndex(0, size - 1) + 1 + trailingOnes(size - 1);
}

/**
 * The hashes entry `n` adds, in storage order from index storedHashIndex(0, n): its leaf hash, then the hash of every
 * subtree it completes. `read` answers the left siblings, stored earlier.
 */
export async function storedHashesFor(n: number, leaf: Hash, read: HashReader): Promise<Hash[]> {
  const completed = trailingOnes(n);
  const siblings = Array.from({ length: completed }, (_, i) => storedHashIndex(completed - 1 - i, shiftRight(n, completed - 1 - i) - 1));
  const old = await read(siblings);
  const hashes = [leaf];
  let hash = leaf;
  for (let i = 0; i < completed; i++) {
    hash = nodeHash(old[completed - 1 - i]!, hash);
    hashes.push(hash);
  }
  return hashes;
}

/** The stored indexes of the maximal complete subtrees covering [lo, hi), left to right. */
function subtreeIndexes(lo: number, hi: number, need: number[]): number[] {
  for (let start = lo; start < hi;) {
    const { k, level } = largestPowerBelow(hi - start + 1);
    need.push(storedHashIndex(level, shiftRight(start, level)));
    start += k;
  }
  return need;
}

/** Combines the subtree hashes `subtreeIndexes(lo, hi)` asked for (taken from the front of `hashes`) into [lo, hi)'s hash. */
function subtreeHash(lo: number, hi: number, hashes: Hash[]): Hash {
  const parts: Hash[] = [];
  for (let start = lo; start < hi; start += largestPowerBelow(hi - start + 1).k) parts.push(hashes.shift()!);
  return parts.reduceRight((right, left) => nodeHash(left, right));
}

/** The root hash of the tree of the first `size` entries. */
export async function treeHash(size: number, read: HashReader): Promise<Hash> {
  if (size === 0) return EMPTY_TREE_HASH;
  return subtreeHash(0, size, await read(subtreeIndexes(0, size, [])));
}

function inclusionIndexes(lo: number, hi: number, n: number, need: number[]): number[] {
  if (lo + 1 === hi) return need;
  const { k } = largestPowerBelow(hi - lo);
  if (n < lo + k) return subtreeIndexes(lo + k, hi, inclusionIndexes(lo, lo + k, n, need));
  return inclusionIndexes(lo + k, hi, n, subtreeIndexes(lo, lo + k, need));
}

function inclusionPath(lo: number, hi: number, n: number, hashes: Hash[]): Hash[] {
  if (lo + 1 === hi) return [];
  const { k } = largestPowerBelow(hi - lo);
  if (n < lo + k) {
    const path = inclusionPath(lo, lo + k, n, hashes);
    return [...path, subtreeHash(lo + k, hi, hashes)];
  }
  const sibling = subtreeHash(lo, lo + k, hashes);
  return [...inclusionPath(lo + k, hi, n, hashes), sibling];
}

/** RFC 6962 §2.1.1 audit path of entry `index` in the tree of `size` entries, leaf's sibling first. */
export async function inclusionProof(size: number, index: number, read: HashReader): Promise<Hash[]> {
  if (!(index >= 0 && index < size)) throw new RangeError(`index ${index} is not in a tree of size ${size}`);
  return inclusionPath(0, size, index, await read(inclusionIndexes(0, size, index, [])));
}

function consistencyIndexes(lo: number, hi: number, n: number, need: number[]): number[] {
  if (n === hi) return lo === 0 ? need : subtreeIndexes(lo, hi, need);
  const { k } = largestPowerBelow(hi - lo);
  if (n <= lo + k) return subtreeIndexes(lo + k, hi, consistencyIndexes(lo, lo + k, n, need));
  return consistencyIndexes(lo + k, hi, n, subtreeIndexes(lo, lo + k, need));
}

function consistencyPath(lo: number, hi: number, n: number, hashes: Hash[]): Hash[] {
  if (n === hi) return lo === 0 ? [] : [subtreeHash(lo, hi, hashes)];
  const { k } = largestPowerBelow(hi - lo);
  if (n <= lo + k) {
    const path = consistencyPath(lo, lo + k, n, hashes);
    return [...path, subtreeHash(lo + k, hi, hashes)];
  }
  const left = subtreeHash(lo, lo + k, hashes);
  return [...consistencyPath(lo + k, hi, n, hashes), left];
}

/** RFC 6962 §2.1.2 consistency proof from the tree of `oldSize` entries to the one of `size` (0 < oldSize ≤ size). */
export async function consistencyProof(size: number, oldSize: number, read: HashReader): Promise<Hash[]> {
  if (!(oldSize >= 1 && oldSize <= size)) throw new RangeError(`no consistency proof from size ${oldSize} to ${size}`);
  return consistencyPath(0, size, oldSize, await read(consistencyIndexes(0, size, oldSize, [])));
}

/** The root an inclusion proof leads to from `leaf` at `index` in a tree of `size`; undefined for a proof of the wrong length. */
export function rootFromInclusion(proof: readonly Hash[], size: number, index: number, leaf: Hash): Hash | undefined {
  const run = (lo: number, hi: number, path: readonly Hash[]): Hash | undefined => {
    if (lo + 1 === hi) return path.length === 0 ? leaf : undefined;
    if (path.length === 0) return undefined;
    const { k } = largestPowerBelow(hi - lo);
    const last = path[path.length - 1]!;
    const rest = path.slice(0, -1);
    if (index < lo + k) {
      const left = run(lo, lo + k, rest);
      return left && nodeHash(left, last);
    }
    const right = run(lo + k, hi, rest);
    return right && nodeHash(last, right);
  };
  return run(0, size, proof);
}
