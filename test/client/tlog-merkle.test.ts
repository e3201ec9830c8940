import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  emptyRoot,
  hashesEqual,
  leafHash,
  merkleRoot,
  nodeHash,
  parseEntryBundle,
  tilePath,
  TiledTree,
  tileWidth,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type TileFetcher,
} from '../../packages/client/src/index.js';

/**
 * RFC 6962 hashing and proofs: the RFC's 7-leaf worked example (§2.1.3), tile paths as c2sp tlog-tiles
 * spells them, and properties over random trees served as in-memory tiles.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Tiles of a tree of `leaves` at `size`, as a log would serve them, keyed by path. */
async function memoryTiles(leaves: readonly Hash[], size: number): Promise<TileFetcher> {
  const files = new Map<string, Uint8Array>();
  let level: Hash[] = leaves.slice(0, size);
  for (let l = 0; level.length > 0; l += 1) {
    for (let n = 0; n * 256 < level.length; n += 1) {
      const hashes = level.slice(n * 256, n * 256 + 256);
      files.set(tilePath(l, n, hashes.length), new Uint8Array(hashes.flatMap((h) => [...h])));
    }
    const full = Math.floor(level.length / 256);
    level = await Promise.all(Array.from({ length: full }, (_, n) => merkleRoot(level.slice(n * 256, n * 256 + 256))));
  }
  return async (path) => {
    const bytes = files.get(path);
    if (!bytes) throw new Error(`no tile ${path}`);
    return bytes;
  };
}

const leavesOf = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => leafHash(utf8(`leaf ${i}`))));

describe('RFC 6962 §2.1.3 worked example: seven leaves d0…d6', async () => {
  const [a, b, c, d, e, f, j] = await Promise.all(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((x) => leafHash(utf8(x))));
  const [g, h, i] = await Promise.all([nodeHash(a!, b!), nodeHash(c!, d!), nodeHash(e!, f!)]);
  const [k, l] = await Promise.all([nodeHash(g, h), nodeHash(i, j!)]);
  const root = await nodeHash(k, l);
  const tree = new TiledTree(await memoryTiles([a!, b!, c!, d!, e!, f!, j!], 7), 7);

  it('the root is hash(k, l) and the RFC audit paths: d0 [b, h, l], d3 [c, g, l], d4 [f, j, k], d6 [i, k]', async () => {
    expect(hashesEqual(await tree.root(), root)).toBe(true);
    const expected: [number, Hash[]][] = [
      [0, [b!, h, l]],
      [3, [c!, g, l]],
      [4, [f!, j!, k]],
      [6, [i, k]],
    ];
    for (const [index, path] of expected) {
      expect(await tree.proveInclusion(index)).toEqual(path);
      const leaf = [a, b, c, d, e, f, j][index]!;
      expect(await verifyInclusion(leaf, index, 7, path, root)).toBe(true);
      expect(await verifyInclusion(leaf, index === 0 ? 1 : 0, 7, path, root)).toBe(false);
    }
  });

  it('the RFC consistency proofs: 3 → 7 [c, d, g, l], 4 → 7 [l], 6 → 7 [i, j, k]', async () => {
    const olderRoots = { 3: await nodeHash(g, c!), 4: k, 6: await nodeHash(k, i) };
    const expected: [3 | 4 | 6, Hash[]][] = [
      [3, [c!, d!, g, l]],
      [4, [l]],
      [6, [i, j!, k]],
    ];
    for (const [old, proof] of expected) {
      expect(await tree.proveConsistency(old)).toEqual(proof);
      expect(await verifyConsistency(old, 7, olderRoots[old], root, proof)).toBe(true);
      expect(await verifyConsistency(old, 7, root, root, proof)).toBe(false);
    }
  });

  it('edge cases: the empty tree is a prefix of any tree, equal sizes need equal roots, a shrinking tree is never consistent', async () => {
    expect(await verifyConsistency(0, 7, await emptyRoot(), root, [])).toBe(true);
    expect(await verifyConsistency(0, 7, await emptyRoot(), root, [a!])).toBe(false);
    expect(await verifyConsistency(7, 7, root, root, [])).toBe(true);
    expect(await verifyConsistency(7, 7, root, k, [])).toBe(false);
    expect(await verifyConsistency(7, 4, root, k, [l])).toBe(false);
    expect(await verifyInclusion(a!, 7, 7, [], root)).toBe(false);
    expect(Buffer.from(await emptyRoot()).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('tile paths (c2sp tlog-tiles)', () => {
  it('spells N in 3-digit elements with x prefixes and partial widths as .p/W', () => {
    expect(tilePath(0, 0)).toBe('tile/0/000');
    expect(tilePath(1, 1234067)).toBe('tile/1/x001/x234/067');
    expect(tilePath('entries', 273, 112)).toBe('tile/entries/273.p/112');
    expect(tilePath(2, 1000, 1)).toBe('tile/2/x001/000.p/1');
    expect(() => tilePath(0, 0, 0)).toThrow(RangeError);
  });
  it('the spec example: a tree of 70,000 has 273 full level-0 tiles and a partial of 112, level 1 a full tile and a partial of 17, level 2 a partial of 1', () => {
    expect([tileWidth(70_000, 0, 272), tileWidth(70_000, 0, 273), tileWidth(70_000, 0, 274)]).toEqual([256, 112, 0]);
    expect([tileWidth(70_000, 1, 0), tileWidth(70_000, 1, 1), tileWidth(70_000, 2, 0), tileWidth(70_000, 3, 0)]).toEqual([256, 17, 1, 0]);
    expect([tileWidth(256, 0, 0), tileWidth(256, 1, 0)]).toEqual([256, 1]);
  });
  it('splits entry bundles of uint16 length-prefixed entries and rejects truncated ones', () => {
    expect(parseEntryBundle(Uint8Array.of(0, 2, 104, 105, 0, 0, 0, 1, 33)).map((e) => [...e])).toEqual([[104, 105], [], [33]]);
    expect(() => parseEntryBundle(Uint8Array.of(0, 3, 1))).toThrow(/truncated/);
    expect(() => parseEntryBundle(Uint8Array.of(0))).toThrow(/truncated/);
  });
});

describe('proofs built from tiles verify, and tampering fails (property)', { timeout: 120_000 }, async () => {
  const leaves = await leavesOf(700);
  const trees = new Map<number, TiledTree>();
  const treeOf = async (size: number) =>
    trees.get(size) ?? trees.set(size, new TiledTree(await memoryTiles(leaves, size), size)).get(size)!;

  it('inclusion at any index of any size up to 700', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 700 }), fc.nat(), fc.nat(), async (size, at, flip) => {
        const index = at % size;
        const tree = await treeOf(size);
        const [root, proof] = [await merkleRoot(leaves.slice(0, size)), await tree.proveInclusion(index)];
        expect(hashesEqual(await tree.root(), root)).toBe(true);
        expect(await verifyInclusion(leaves[index]!, index, size, proof, root)).toBe(true);
        if (proof.length === 0) return;
        const bad = proof.map((h) => h.slice());
        bad[flip % bad.length]![flip % 32]! ^= 1;
        expect(await verifyInclusion(leaves[index]!, index, size, bad, root)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('consistency between any two sizes up to 700', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 700 }), fc.nat(), fc.nat(), async (size, at, flip) => {
        const old = at % (size + 1);
        const proof = await (await treeOf(size)).proveConsistency(old);
        const [oldRoot, newRoot] = [await merkleRoot(leaves.slice(0, old)), await merkleRoot(leaves.slice(0, size))];
        expect(await verifyConsistency(old, size, oldRoot, newRoot, proof)).toBe(true);
        if (proof.length === 0) return;
        const bad = proof.map((h) => h.slice());
        bad[flip % bad.length]![flip % 32]! ^= 1;
        expect(await verifyConsistency(old, size, oldRoot, newRoot, bad)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});
