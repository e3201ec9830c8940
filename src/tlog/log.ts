import type { BackgroundErrors } from '../core/background.js';
import type { Clock } from '../core/clock.js';
import type { TlogRepo } from '../store/repos/tlog.js';
import { integrateStep } from './integrate.js';
import { consistencyProof, inclusionProof, leafHash, rootFromInclusion } from './merkle.js';
import { verifierKey, type NoteSigner } from '../core/signed-note.js';
import { Sequencer, type Built } from './sequencer.js';
import { entryBundle, TILE_WIDTH, tileExists, tileHashIndexes, type TileRef } from './tiles.js';
import { WitnessClient, type Witnessed } from './witness.js';
import type { WitnessConfig } from '../config-tlog.js';

export interface TransparencyLogOptions {
  repo: TlogRepo;
  signer: NoteSigner;
  clock: Clock;
  background: BackgroundErrors;
  intervalMs: number;
  witnesses: WitnessConfig[];
  witnessQuorum: number;
}

/**
 * Whether a logged receipt is in the log: `included` (its canonical JSON is the entry at its index under the published
 * checkpoint's root), `pending` (its index is past that checkpoint), `not_included` (another entry is there: proof
 * of misbehaviour, or an altered receipt), `other_log` (its origin is not this log's).
 */
export type InclusionStatus = 'included' | 'pending' | 'not_included' | 'other_log';

/** A published checkpoint: its size and the signed note served (the log's signature, then the cosignatures). */
export interface Published {
  size: number;
  note: string;
}

const JOB = 'tlog-integrate';
/** Steps per tick at most (65,536 entries): short steps (MAX_INTEGRATE), as many as a burst needs. */
const MAX_STEPS_PER_TICK = 256;

/**
 * svc's transparency log (issue 36): appends through the store-backed sequencer, integrates and signs checkpoints on
 * a timer (and sends them to the witnesses), and reads tiles, entry bundles and proofs back from the store.
 */
export class TransparencyLog {
  readonly origin: string;
  /** The checkpoint verifier key, `<origin>+<key id>+<base64(0x01 ‖ key)>`. */
  readonly verifierKey: string;
  private readonly sequencer: Sequencer;
  private readonly witnesses: WitnessClient;
  private timer?: NodeJS.Timeout;
  private stopped = true;

  constructor(private readonly o: TransparencyLogOptions) {
    this.origin = o.signer.name;
    this.verifierKey = verifierKey(o.signer);
    this.sequencer = new Sequencer((count, build) => o.repo.append(count, build), o.repo.appendsInFlight);
    this.witnesses = new WitnessClient(o.witnesses, {
      proof: (size, oldSize) => consistencyProof(size, oldSize, (indexes) => o.repo.readHashes(indexes)),
      keep: (size, witnessed) => this.keepCosignature(size, witnessed),
      report: (name, error) =>
        error === undefined ? o.background.succeeded(`tlog-witness ${name}`) : o.background.failed(`tlog-witness ${name}`, error),
    });
  }

  /** Appends one entry; resolves with its built value once the entry is committed (see Sequencer). */
  append<T>(build: (index: number) => Built<T>): Promise<T> {
    return this.sequencer.append(build);
  }

  /** Integrates everything appended so far (in steps) and offers the newest checkpoint to the witnesses. */
  async integrate(): Promise<void> {
    // Bounded: a backlog larger than this is finished by the next ticks.
    for (let step = 0; step < MAX_STEPS_PER_TICK; step++) {
      const integrated = await integrateStep(this.o.repo, this.o.signer, () => this.o.clock.now());
      if (!integrated?.waiting) break;
    }
    const latest = await this.o.repo.latestCheckpoint();
    if (latest) this.witnesses.offer(latest.size, latest.note);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.o.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.witnesses.settled();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  /** A store outage delays checkpoints (with backoff) but never ends the loop. */
  private async tick(): Promise<void> {
    let delay = this.o.intervalMs;
    try {
      await this.integrate();
      this.o.background.succeeded(JOB);
    } catch (error) {
      delay = Math.max(delay, this.o.background.failed(JOB, error));
    }
    this.schedule(delay);
  }

  private async keepCosignature(size: number, witnessed: Witnessed): Promise<void> {
    await this.o.repo.addCosignature(size, witnessed.line, `— ${witnessed.name} `);
  }

  /** The newest checkpoint with enough cosignatures (SVC_LOG_WITNESS_QUORUM), cosignature lines appended. */
  async published(): Promise<Published | undefined> {
    const row = await this.o.repo.latestCosigned(this.o.witnessQuorum);
    if (!row) return undefined;
    return { size: row.size, note: row.note + (row.cosignatures ? `${row.cosignatures}\n` : '') };
  }

  /** A hash tile or entry bundle, or undefined when the integrated tree does not hold it yet. */
  async tile(ref: TileRef): Promise<Buffer | undefined> {
    const integrated = (await this.o.repo.latestCheckpoint())?.size ?? 0;
    if (!tileExists(ref, integrated)) return undefined;
    if (ref.level === 'entries') {
      const entries = await this.o.repo.entries(ref.index * TILE_WIDTH, ref.index * TILE_WIDTH + ref.width);
      return entryBundle(entries.map((entry) => Buffer.from(entry)));
    }
    return Buffer.concat(await this.o.repo.readHashes(tileHashIndexes({ ...ref, level: ref.level })));
  }

  /** Checks a receipt's `log` position against the published checkpoint with a Merkle inclusion proof. */
  async inclusion(
    entry: string,
    position: { origin: string; index: number },
  ): Promise<{ status: InclusionStatus; checkpoint_size?: number }> {
    if (position.origin !== this.origin) return { status: 'other_log' };
    const checkpoint = await this.published();
    if (!checkpoint || position.index >= checkpoint.size) return { status: 'pending', checkpoint_size: checkpoint?.size ?? 0 };
    const proof = await inclusionProof(checkpoint.size, position.index, (indexes) => this.o.repo.readHashes(indexes));
    const root = Buffer.from(checkpoint.note.split('\n')[2]!, 'base64');
    const included = rootFromInclusion(proof, checkpoint.size, position.index, leafHash(Buffer.from(entry)))?.equals(root) ?? false;
    return { status: included ? 'included' : 'not_included', checkpoint_size: checkpoint.size };
  }

  /** The c2sp.org/tlog-proof of entry `index` against the published checkpoint; undefined when it does not cover it. */
  async proof(index: number): Promise<string | undefined> {
    const checkpoint = await this.published();
    if (!checkpoint || index >= checkpoint.size) return undefined;
    const path = await inclusionProof(checkpoint.size, index, (indexes) => this.o.repo.readHashes(indexes));
    return ['c2sp.org/tlog-proof@v1', `index ${index}`, ...path.map((hash) => hash.toString('base64')), '', checkpoint.note].join('\n');
  }
}
