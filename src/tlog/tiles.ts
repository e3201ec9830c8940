import { storedHashIndex } from './merkle.js';

/** c2sp.org/tlog-tiles: tiles of height 8, so a full tile holds 256 hashes (or entries). */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

/** A tile of hashes at tile level `level` (0..63), or an entry bundle (`level` 'entries'); `width` < 256 for a partial one. */
export interface TileRef {
  level: number | 'entries';
  index: number;
  width: number;
}

/** `N` as path elements: three digits each, every one but the last prefixed with `x` (1234067 → x001/x234/067). */
export function formatTileIndex(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

export const tilePath = ({ level, index, width }: TileRef): string =>
  `tile/${level}/${formatTileIndex(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;

const INDEX_PATH = /^((?:x\d{3}\/)*)(\d{3})(?:\.p\/([1-9]\d*))?$/;

/** Parses what follows `tile/<level>/`; undefined unless it is exactly the canonical form. */
export function parseTileIndex(level: number | 'entries', rest: string): TileRef | undefined {
  const match = INDEX_PATH.exec(rest);
  if (!match) return undefined;
  const groups = [
    ...match[1]!
      .split('/')
      .filter(Boolean)
      .map((g) => g.slice(1)),
    match[2]!,
  ];
  if (groups.length > 1 && groups[0] === '000') return undefined;
  const index = groups.reduce((n, group) => n * 1000 + Number(group), 0);
  const width = match[3] === undefined ? TILE_WIDTH : Number(match[3]);
  if (!Number.isSafeInteger(index) || width > TILE_WIDTH || (match[3] !== undefined && width === TILE_WIDTH)) return undefined;
  return { level, index, width };
}

/** The stored hashes a hash tile holds: level `level × 8` of the tree, positions index×256 … index×256+width-1. */
export function tileHashIndexes({ level, index, width }: TileRef & { level: number }): number[] {
  const treeLevel = level * TILE_HEIGHT;
  return Array.from({ length: width }, (_, i) => storedHashIndex(treeLevel, index * TILE_WIDTH + i));
}

/**
 * Whether the tree of `size` entries holds the tile. A tile's content never changes once its hashes exist, so any
 * width up to what the tree has is served: a client holding an older checkpoint asks for the partial tile of its size.
 */
export function tileExists({ level, index, width }: TileRef, size: number): boolean {
  const leavesPerHash = level === 'entries' ? 1 : TILE_WIDTH ** level;
  return width <= Math.floor(size / leavesPerHash) - index * TILE_WIDTH;
}

/** An entry bundle: each entry as a big-endian uint16 length then its bytes. */
export function entryBundle(entries: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(entry.length);
    parts.push(length, Buffer.from(entry));
  }
  return Buffer.concat(parts);
}

/** The largest entry a bundle can carry (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;
