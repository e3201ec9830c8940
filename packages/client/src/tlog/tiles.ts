import { TlogError } from './errors.js';
import { HASH_SIZE, isPowerOfTwo, merkleRoot, nodeHash, splitPoint, type Hash } from './merkle.js';

/**
 * c2sp.org/tlog-tiles at height 8: the log serves its Merkle tree as tiles of 256 hashes and its entries
 * as bundles of 256. `TiledTree` reads any complete subtree's hash from the tiles of one tree size and
 * builds RFC 6962 inclusion and consistency proofs from them. The tiles are untrusted: every proof built
 * here must still pass `verifyInclusion` / `verifyConsistency` against a signed checkpoint.
 */

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

/** `<L>/<N>[.p/<W>]` with N in 3-digit path elements, all but the last prefixed with `x` (1234067 → x001/x234/067). */
export function tilePath(level: number | 'entries', index: number, width: number = TILE_WIDTH): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`tile index ${index}`);
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) throw new RangeError(`tile width ${width}`);
  let elements = String(index % 1000).padStart(3, '0');
  for (let rest = Math.floor(index / 1000); rest > 0; rest = Math.floor(rest / 1000))
    elements = `x${String(rest % 1000).padStart(3, '0')}/${elements}`;
  return `tile/${level}/${elements}${width === TILE_WIDTH ? '' : `.p/${width}`}`;
}

/** Fetches one tile resource by its path relative to the log prefix (`tile/0/000`, `tile/entries/001.p/3`). */
export type TileFetcher = (path: string) => Promise<Uint8Array>;

/**
 * A fetcher over HTTP for the log at `prefix` (e.g. `https://svc.example.com/log`), caching what it
 * read: full tiles never change, and a partial tile is only asked for at the width a checkpoint names.
 */
export function httpTileFetcher(prefix: string, fetchImpl: typeof fetch = globalThis.fetch): TileFetcher {
  const base = prefix.replace(/\/+$/, '');
  const cache = new Map<string, Promise<Uint8Array>>();
  const load = async (path: string): Promise<Uint8Array> => {
    const response = await fetchImpl(`${base}/${path}`, { headers: { accept: 'application/octet-stream' } });
    if (!response.ok) throw new TlogError(`GET ${base}/${path}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  return (path) => {
    let bytes = cache.get(path);
    if (!bytes) {
      bytes = load(path);
      bytes.catch(() => cache.delete(path));
      cache.set(path, bytes);
    }
    return bytes;
  };
}

/** Width of tile `index` at tile level `level` in a tree of `size` leaves (0 when it does not exist). */
export function tileWidth(size: number, level: number, index: number): number {
  const hashesAtLevel = Math.floor(size / TILE_WIDTH ** level);
  return Math.max(0, Math.min(TILE_WIDTH, hashesAtLevel - index * TILE_WIDTH));
}

/** Splits an entry bundle: big-endian uint16 length-prefixed entries. */
export function parseEntryBundle(bytes: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length;) {
    if (offset + 2 > bytes.length) throw new TlogError('entry bundle: truncated length prefix');
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    if (offset + 2 + length > bytes.length) throw new TlogError('entry bundle: truncated entry');
    entries.push(bytes.subarray(offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  return entries;
}

export class TiledTree {
  constructor(
    private readonly fetchTile: TileFetcher,
    readonly size: number,
  ) {}

  /** The hashes of a tile of this tree, checked to be exactly as wide as this tree's size implies. */
  async tile(level: number, index: number): Promise<Hash[]> {
    const width = tileWidth(this.size, level, index);
    if (width === 0) throw new RangeError(`tile ${level}/${index} does not exist at size ${this.size}`);
    const bytes = await this.fetchTile(tilePath(level, index, width));
    if (bytes.length !== width * HASH_SIZE)
      throw new TlogError(`${tilePath(level, index, width)}: ${bytes.length} bytes, expected ${width * HASH_SIZE}`);
    return Array.from({ length: width }, (_, i) => bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  }

  /** The entries of bundle `index`, as wide as this tree's size implies. */
  async entries(index: number): Promise<Uint8Array[]> {
    const width = tileWidth(this.size, 0, index);
    if (width === 0) throw new RangeError(`entry bundle ${index} does not exist at size ${this.size}`);
    const entries = parseEntryBundle(await this.fetchTile(tilePath('entries', index, width)));
    if (entries.length !== width) throw new TlogError(`${tilePath('entries', index, width)}: ${entries.length} entries, expected ${width}`);
    return entries;
  }

  /** MTH of the complete subtree of 2^height leaves starting at leaf `index * 2^height`. */
  async subtreeHash(height: number, index: number): Promise<Hash> {
    const level = Math.floor(height / TILE_HEIGHT);
    const span = 2 ** (height % TILE_HEIGHT);
    const first = index * span;
    const hashes = await this.tile(level, Math.floor(first / TILE_WIDTH));
    const offset = first % TILE_WIDTH;
    if (offset + span > hashes.length) throw new RangeError(`subtree ${height}/${index} is not complete at size ${this.size}`);
    return merkleRoot(hashes.slice(offset, offset + span));
  }

  /** MTH(D[start:end]) for the ranges RFC 6962's recursion visits (start a multiple of the range's split). */
  async rangeHash(start: number, end: number): Promise<Hash> {
    const n = end - start;
    if (isPowerOfTwo(n) && start % n === 0) return this.subtreeHash(Math.log2(n), start / n);
    const k = splitPoint(n);
    return nodeHash(await this.rangeHash(start, start + k), await this.rangeHash(start + k, end));
  }

  root(): Promise<Hash> {
    if (this.size === 0) throw new RangeError('the empty tree has no tiles');
    return this.rangeHash(0, this.size);
  }

  leafHash(index: number): Promise<Hash> {
    return this.subtreeHash(0, index);
  }

  /** RFC 6962 §2.1.1 PATH(index, D[0:size]). */
  proveInclusion(index: number): Promise<Hash[]> {
    if (!(Number.isSafeInteger(index) && index >= 0 && index < this.size)) throw new RangeError(`index ${index} not below ${this.size}`);
    return this.path(index, 0, this.size);
  }

  private async path(m: number, start: number, end: number): Promise<Hash[]> {
    const n = end - start;
    if (n === 1) return [];
    const k = splitPoint(n);
    if (m < k) return [...(await this.path(m, start, start + k)), await this.rangeHash(start + k, end)];
    return [...(await this.path(m - k, start + k, end)), await this.rangeHash(start, start + k)];
  }

  /** RFC 6962 §2.1.2 PROOF(oldSize, D[0:size]); empty for an empty or equal old tree. */
  proveConsistency(oldSize: number): Promise<Hash[]> {
    if (!(Number.isSafeInteger(oldSize) && oldSize >= 0 && oldSize <= this.size)) throw new RangeError(`old size ${oldSize}`);
    if (oldSize === 0 || oldSize === this.size) return Promise.resolve([]);
    return this.subproof(oldSize, 0, this.size, true);
  }

  private async subproof(m: number, start: number, end: number, complete: boolean): Promise<Hash[]> {
    const n = end - start;
    if (m === n) return complete ? [] : [await this.rangeHash(start, end)];
    const k = splitPoint(n);
    if (m <= k) return [...(await this.subproof(m, start, start + k, complete)), await this.rangeHash(start + k, end)];
    return [...(await this.subproof(m - k, start + k, end, false)), await this.rangeHash(start, start + k)];
  }
}
