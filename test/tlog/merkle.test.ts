import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import vectors from './vectors/go-sumdb-tlog.json' with { type: 'json' };
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  rootFromInclusion,
  storedHashCount,
  storedHashesFor,
  storedHashIndex,
  treeHash,
  type Hash,
  type HashReader,
} from '../../src/tlog/merkle.js';
import { parseTileIndex, tileHashIndexes, tilePath, formatTileIndex, tileExists } from '../../src/tlog/tiles.js';

/** An in-memory stored-hash log: entries appended with storedHashesFor, as integration stores them. */
async function memoryLog(entries: Uint8Array[]): Promise<HashReader> {
  const stored: Hash[] = [];
  const read: HashReader = async (indexes) => indexes.map((i) => stored[i]!);
  for (const [n, entry] of entries.entries()) {
    const hashes = await storedHashesFor(n, leafHash(entry), read);
    expect(stored.length).toBe(storedHashIndex(0, n));
    stored.push(...hashes);
  }
  expect(stored.length).toBe(storedHashCount(entries.length));
  return read;
}

const hex = (hashes: Hash[]) => hashes.map((h) => h.toString('hex'));
const b64 = (hashes: Hash[]) => hashes.map((h) => h.toString('base64'));

// RFC 6962's reference tree (§2.1.3's 7-leaf example, as Certificate Transparency's test vectors fill it, plus an 8th leaf).
const RFC_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) =>
  Buffer.from(h, 'hex'),
);
const RFC_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('RFC 6962 reference tree', () => {
  it('has the reference root at every size', async () => {
    const read = await memoryLog(RFC_LEAVES);
    for (let size = 1; size <= 8; size++) expect((await treeHash(size, read)).toString('hex')).toBe(RFC_ROOTS[size - 1]);
    expect((await treeHash(0, read)).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('proves d0, d3 and d6 in the 7-leaf tree with the audit paths §2.1.3 describes', async () => {
    const read = await memoryLog(RFC_LEAVES);
    expect(hex(await inclusionProof(7, 0, read))).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e',
    ]);
    expect(hex(await inclusionProof(7, 3, read))).toEqual([
      '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      '837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e',
    ]);
    expect(hex(await inclusionProof(7, 6, read))).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
  });

  it('proves consistency of trees 1, 3 and 4 with the 7-leaf tree', async () => {
    const read = await memoryLog(RFC_LEAVES);
    expect(hex(await consistencyProof(7, 3, read))).toEqual([
      '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
      '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      '837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e',
    ]);
    expect(hex(await consistencyProof(7, 4, read))).toEqual(['837dbb152e9b079010717e84e865da4ebc0fa198a806d59d31bf15accef22d0e']);
    expect(hex(await consistencyProof(7, 1, read))).toHaveLength(3);
    expect(await consistencyProof(7, 7, read)).toEqual([]);
  });
});

describe("against golang.org/x/mod/sumdb/tlog's output (test/tlog/vectors/go-sumdb-tlog.json)", () => {
  const entries = Array.from({ length: 600 }, (_, i) => Buffer.from(`{"entry":${i}}`));
  const log = memoryLog(entries);

  it('stores as many hashes and computes the same roots', async () => {
    const read = await log;
    expect(storedHashCount(600)).toBe(vectors.stored_hash_count_600);
    for (const [size, root] of Object.entries(vectors.roots)) expect((await treeHash(Number(size), read)).toString('base64')).toBe(root);
  });

  it('gives the same inclusion and consistency proofs', async () => {
    const read = await log;
    for (const v of vectors.inclusion) expect(b64(await inclusionProof(v.size, v.index, read))).toEqual(v.proof);
    for (const v of vectors.consistency) expect(b64(await consistencyProof(v.size, v.old, read))).toEqual(v.proof);
  });

  it('reads the same tiles, full and partial, at levels 0 and 1', async () => {
    const read = await log;
    for (const [path, data] of Object.entries(vectors.tiles)) {
      const [, , levelText, ...rest] = path.split('/');
      const ref = parseTileIndex(Number(levelText), rest.join('/'))!;
      expect(tilePath(ref)).toBe(path.slice('tile/8/'.length).replace(/^/, 'tile/'));
      expect(Buffer.concat(await read(tileHashIndexes({ ...ref, level: Number(levelText) }))).toString('base64')).toBe(data);
    }
  });
});

describe('inclusion proofs (property)', () => {
  it('lead from every leaf to the root of every tree holding it', async () => {
    const entries = Array.from({ length: 70 }, (_, i) => Buffer.from(`e${i}`));
    const read = await memoryLog(entries);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 70 }), fc.nat(), async (size, pick) => {
        const index = pick % size;
        const root = await treeHash(size, read);
        const proof = await inclusionProof(size, index, read);
        expect(rootFromInclusion(proof, size, index, leafHash(entries[index]!))?.equals(root)).toBe(true);
        expect(rootFromInclusion(proof, size, index, leafHash(Buffer.from('other')))?.equals(root)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('tile paths', () => {
  it('writes N in x-prefixed groups of three digits', () => {
    expect(formatTileIndex(1234067)).toBe('x001/x234/067');
    expect(formatTileIndex(0)).toBe('000');
    expect(tilePath({ level: 'entries', index: 1234067, width: 3 })).toBe('tile/entries/x001/x234/067.p/3');
  });

  it('parses only the canonical form', () => {
    expect(parseTileIndex(0, 'x001/x234/067')).toEqual({ level: 0, index: 1234067, width: 256 });
    expect(parseTileIndex(0, '067.p/12')).toEqual({ level: 0, index: 67, width: 12 });
    for (const bad of ['67', 'x000/067', '067.p/256', '067.p/0', '067.p/012', 'x1/067', '067/'])
      expect(parseTileIndex(0, bad)).toBeUndefined();
  });

  it('round-trips any index (property)', () => {
    fc.assert(fc.property(fc.nat(), (n) => parseTileIndex(2, formatTileIndex(n))?.index === n));
  });

  it('knows which tiles a tree of 70,000 entries holds (the spec example)', () => {
    expect(tileExists({ level: 0, index: 272, width: 256 }, 70_000)).toBe(true);
    expect(tileExists({ level: 0, index: 273, width: 256 }, 70_000)).toBe(false);
    expect(tileExists({ level: 0, index: 273, width: 112 }, 70_000)).toBe(true);
    expect(tileExists({ level: 1, index: 1, width: 17 }, 70_000)).toBe(true);
    expect(tileExists({ level: 2, index: 0, width: 1 }, 70_000)).toBe(true);
    expect(tileExists({ level: 2, index: 0, width: 2 }, 70_000)).toBe(false);
  });
});
