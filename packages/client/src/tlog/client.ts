import { verifyCheckpoint, type VerifiedCheckpoint } from './checkpoint.js';
import { TlogError } from './errors.js';
import { verifyConsistency } from './merkle.js';
import { monitorLog, type MonitorOptions, type MonitorReport } from './monitor.js';
import { parseVerifierKey, type NoteVerifier } from './note.js';
import { formatTlogProof } from './proof.js';
import { httpTileFetcher, TiledTree, type TileFetcher } from './tiles.js';

export interface LogClientOptions {
  /**
   * The log's verifier key. Pin it (from docs or a previous run): without it the client trusts whatever
   * /log/key answers on first use, which proves consistency only with what that server says.
   */
  logKey?: string;
  /** Witness verifier keys (type 0x04) whose cosignatures must verify when present. */
  witnessKeys?: readonly string[];
  fetch?: typeof fetch;
}

/** How a checkpoint relates to the one seen before it. */
export type CheckpointStep =
  { kind: 'same' | 'grew'; from: number; to: number } | { kind: 'fork'; from: number; to: number; reason: string };

/** svc's log over HTTP: `<base>/log/*` (tlog-tiles) and `<base>/api/v1/receipt/proof`. */
export class LogClient {
  readonly fetchTile: TileFetcher;

  private constructor(
    private readonly base: string,
    readonly verifiers: readonly NoteVerifier[],
    private readonly fetchImpl: typeof fetch,
  ) {
    this.fetchTile = httpTileFetcher(`${base}/log`, fetchImpl);
  }

  static async connect(baseUrl: string, { logKey, witnessKeys = [], fetch: fetchImpl = globalThis.fetch }: LogClientOptions = {}) {
    const base = baseUrl.replace(/\/+$/, '');
    const key = logKey ?? (await text(fetchImpl, `${base}/log/key`));
    const verifiers = await Promise.all([key, ...witnessKeys].map(parseVerifierKey));
    return new LogClient(base, verifiers, fetchImpl);
  }

  /** The log's own key: the first verifier. */
  get origin(): string {
    return this.verifiers[0]!.name;
  }

  /** The current checkpoint, signature verified (cosignatures by unknown keys ignored). */
  async checkpoint(): Promise<VerifiedCheckpoint> {
    return this.verifyCheckpointNote(await text(this.fetchImpl, `${this.base}/log/checkpoint`));
  }

  /** A checkpoint of this log seen elsewhere (saved by a previous run, gossiped by a peer), verified. */
  async verifyCheckpointNote(note: string): Promise<VerifiedCheckpoint> {
    const checkpoint = await verifyCheckpoint(note, this.verifiers);
    if (checkpoint.origin !== this.origin) throw new TlogError(`checkpoint origin ${checkpoint.origin}, expected ${this.origin}`);
    return checkpoint;
  }

  /** The `.tlog-proof` svc serves for entry `index`. */
  proof(index: number): Promise<string> {
    return text(this.fetchImpl, `${this.base}/api/v1/receipt/proof?index=${index}`);
  }

  /** A `.tlog-proof` built here from the tiles of `checkpoint`, without the proof endpoint. */
  async proveInclusion(index: number, checkpoint: VerifiedCheckpoint): Promise<string> {
    const path = await new TiledTree(this.fetchTile, checkpoint.size).proveInclusion(index);
    return formatTlogProof({ index, path, checkpoint: checkpoint.note });
  }

  /** Is `newer` an append-only extension of `older`? The consistency proof comes from `newer`'s tiles. */
  async step(older: VerifiedCheckpoint, newer: VerifiedCheckpoint): Promise<CheckpointStep> {
    const sizes = { from: older.size, to: newer.size };
    if (newer.size < older.size) return { kind: 'fork', ...sizes, reason: 'the tree shrank' };
    const proof = newer.size === older.size ? [] : await new TiledTree(this.fetchTile, newer.size).proveConsistency(older.size);
    if (await verifyConsistency(older.size, newer.size, older.root, newer.root, proof))
      return { kind: newer.size === older.size ? 'same' : 'grew', ...sizes };
    return { kind: 'fork', ...sizes, reason: newer.size === older.size ? 'two roots for one size' : 'the consistency proof fails' };
  }

  monitor(checkpoint: VerifiedCheckpoint, options: Omit<MonitorOptions, 'fetchTile' | 'checkpoint'>): Promise<MonitorReport> {
    return monitorLog({ ...options, fetchTile: this.fetchTile, checkpoint });
  }
}

async function text(fetchImpl: typeof fetch, url: string): Promise<string> {
  const response = await fetchImpl(url, { headers: { accept: 'text/plain' } });
  if (!response.ok) throw new TlogError(`GET ${url}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
  return response.text();
}
