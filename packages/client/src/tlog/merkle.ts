/**
 * RFC 6962 §2.1 Merkle tree hashing (c2sp.org/merkle-tree) and the RFC 9162 §2.1.3.2 / §2.1.4.2
 * verification algorithms for inclusion and consistency proofs, on WebCrypto's SHA-256.
 * Sizes and indexes are plain numbers (exact up to 2^53): halving is arithmetic, never `>>`,
 * which would truncate to 32 bits.
 */

export type Hash = Uint8Array;

export const HASH_SIZE = 32;

async function sha256(...parts: Uint8Array[]): Promise<Hash> {
  const input = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    input.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
}

/** SHA-256(0x00 ‖ entry). */
export const leafHash = (entry: Uint8Array): Promise<Hash> => sha256(Uint8Array.of(0), entry);

/** SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Hash, right: Hash): Promise<Hash> => sha256(Uint8Array.of(1), left, right);

/** The root of the empty tree: SHA-256 of the empty string. */
export const emptyRoot = (): Promise<Hash> => sha256();

export const hashesEqual = (a: Hash, b: Hash): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/** The largest power of two strictly below `n` (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

/** MTH over leaf hashes (RFC 6962 §2.1), bottom-up so that a million leaves do not recurse a million deep. */
export async function merkleRoot(leaves: readonly Hash[]): Promise<Hash> {
  const stack = new RootAccumulator();
  for (const leaf of leaves) await stack.push(leaf);
  return stack.root();
}

/**
 * Incremental MTH: push leaf hashes in order, read the root at any time. Keeps one hash per complete
 * subtree (log2 n of them), the way a monitor streams a whole log without holding it.
 */
export class RootAccumulator {
  private readonly stack: { size: number; hash: Hash }[] = [];
  size = 0;

  async push(leaf: Hash): Promise<void> {
    let node = { size: 1, hash: leaf };
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.size === node.size) {
      const left = this.stack.pop()!;
      node = { size: left.size * 2, hash: await nodeHash(left.hash, node.hash) };
    }
    this.stack.push(node);
    this.size += 1;
  }

  async root(): Promise<Hash> {
    if (this.stack.length === 0) return emptyRoot();
    let root = this.stack[this.stack.length - 1]!.hash;
    for (let i = this.stack.length - 2; i >= 0; i -= 1) root = await nodeHash(this.stack[i]!.hash, root);
    return root;
  }
}

/** RFC 9162 §2.1.3.2: does `proof` bind the leaf hash at `index` to `root` of a tree of `size` leaves? */
export async function verifyInclusion(leaf: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): Promise<boolean> {
  if (!(index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let hash = leaf;
  for (const sibling of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      hash = await nodeHash(sibling, hash);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      hash = await nodeHash(hash, sibling);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && hashesEqual(hash, root);
}

/**
 * RFC 9162 §2.1.4.2: does `proof` show that the tree of `oldSize` leaves with `oldRoot` is a prefix of
 * the tree of `newSize` leaves with `newRoot`? The empty tree is a prefix of every tree (empty proof),
 * and equal sizes need equal roots and an empty proof.
 */
export async function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Hash,
  newRoot: Hash,
  proof: readonly Hash[],
): Promise<boolean> {
  if (!(oldSize >= 0 && oldSize <= newSize)) return false;
  if (oldSize === 0) return proof.length === 0;
  if (oldSize === newSize) return proof.length === 0 && hashesEqual(oldRoot, newRoot);
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)];
  let oldHash = path[0]!;
  let newHash = path[0]!;
  for (const node of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      oldHash = await nodeHash(node, oldHash);
      newHash = await nodeHash(node, newHash);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      newHash = await nodeHash(newHash, node);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && hashesEqual(oldHash, oldRoot) && hashesEqual(newHash, newRoot);
}
