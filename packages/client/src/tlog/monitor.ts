import canonicalize from 'canonicalize';
import { utf8Decode } from '../bytes.js';
import { verifyReceipt, type ReceiptJwk } from '../receipt.js';
import type { Checkpoint } from './checkpoint.js';
import { hashesEqual, leafHash, merkleRoot, RootAccumulator } from './merkle.js';
import { TILE_WIDTH, TiledTree, tileWidth, type TileFetcher } from './tiles.js';

/**
 * The monitor's full check of a log at a verified checkpoint: every entry bundle is read, every entry
 * must be a validly signed receipt, in canonical JSON, whose `log` names this origin and its own
 * position; the root recomputed from the entries must be the checkpoint's, and every tile must hold the
 * hashes of what lies below it (so proofs served from the tiles are honest too).
 */

export interface MonitorOptions {
  fetchTile: TileFetcher;
  /** A checkpoint whose signature the caller verified. */
  checkpoint: Checkpoint;
  /** The receipt keys (`keys[]` of /.well-known/svc-receipt-pubkey.json). */
  receiptKeys: readonly ReceiptJwk[];
  /** Called after each entry bundle with the entries checked so far. */
  onProgress?: (checked: number, size: number) => void;
  /** Stop collecting problems after this many (default 100): a broken log would otherwise list them all. */
  maxProblems?: number;
}

export interface MonitorReport {
  origin: string;
  size: number;
  /** True when the root recomputed from the entries is the checkpoint's. */
  rootMatches: boolean;
  /** Tiles whose hashes were recomputed and compared. */
  tilesChecked: number;
  problems: string[];
}

async function entryProblem(entry: Uint8Array, index: number, origin: string, keys: readonly ReceiptJwk[]): Promise<string | undefined> {
  let receipt: Record<string, unknown>;
  try {
    receipt = JSON.parse(utf8Decode(entry)) as Record<string, unknown>;
  } catch {
    return `entry ${index}: not JSON`;
  }
  if (canonicalize(receipt) !== utf8Decode(entry)) return `entry ${index}: not RFC 8785 canonical JSON`;
  const verdict = await verifyReceipt(receipt, keys);
  if (!verdict.valid) return `entry ${index}: receipt ${verdict.reason}`;
  const log = receipt.log as { origin?: unknown; index?: unknown } | undefined;
  if (log?.origin !== origin || log.index !== index)
    return `entry ${index}: receipt says log ${JSON.stringify(log ?? null)}, expected {"origin":${JSON.stringify(origin)},"index":${index}}`;
  return undefined;
}

/** Every hash of every tile above level 0 is the root of the full tile below it. */
async function checkUpperTiles(tree: TiledTree, problems: string[]): Promise<number> {
  let checked = 0;
  for (let level = 1; tileWidth(tree.size, level, 0) > 0; level += 1) {
    for (let index = 0; tileWidth(tree.size, level, index) > 0; index += 1) {
      const hashes = await tree.tile(level, index);
      for (const [i, hash] of hashes.entries()) {
        const below = await merkleRoot(await tree.tile(level - 1, index * TILE_WIDTH + i));
        if (!hashesEqual(hash, below))
          problems.push(`tile ${level}/${index}: hash ${i} is not the root of tile ${level - 1}/${index * TILE_WIDTH + i}`);
      }
      checked += 1;
    }
  }
  return checked;
}

export async function monitorLog({
  fetchTile,
  checkpoint,
  receiptKeys,
  onProgress,
  maxProblems = 100,
}: MonitorOptions): Promise<MonitorReport> {
  const tree = new TiledTree(fetchTile, checkpoint.size);
  const problems: string[] = [];
  const root = new RootAccumulator();
  let tilesChecked = 0;
  for (let bundle = 0; bundle * TILE_WIDTH < checkpoint.size && problems.length < maxProblems; bundle += 1) {
    const [entries, tile] = await Promise.all([tree.entries(bundle), tree.tile(0, bundle)]);
    for (const [i, entry] of entries.entries()) {
      const index = bundle * TILE_WIDTH + i;
      const leaf = await leafHash(entry);
      await root.push(leaf);
      if (!hashesEqual(leaf, tile[i]!)) problems.push(`tile 0/${bundle}: hash ${i} is not the hash of entry ${index}`);
      const problem = await entryProblem(entry, index, checkpoint.origin, receiptKeys);
      if (problem) problems.push(problem);
    }
    tilesChecked += 1;
    onProgress?.(root.size, checkpoint.size);
  }
  const complete = root.size === checkpoint.size;
  const rootMatches = complete && hashesEqual(await root.root(), checkpoint.root);
  if (complete && !rootMatches) problems.push('the root recomputed from the entries is not the checkpoint root');
  if (complete) tilesChecked += await checkUpperTiles(tree, problems);
  return { origin: checkpoint.origin, size: checkpoint.size, rootMatches, tilesChecked, problems: problems.slice(0, maxProblems) };
}
