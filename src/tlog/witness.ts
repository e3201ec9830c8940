import type { WitnessConfig } from '../config-tlog.js';
import type { Hash } from './merkle.js';
import { verifyCosignature } from '../core/signed-note.js';

/** One witness's cosignature on a checkpoint, verified against the witness's configured key. */
export interface Witnessed {
  name: string;
  line: string;
}

export interface WitnessIo {
  /** RFC 6962 consistency proof from `oldSize` to `size` (0 < oldSize < size). */
  proof(size: number, oldSize: number): Promise<Hash[]>;
  /** Keeps a verified cosignature of the checkpoint of `size`. */
  keep(size: number, witnessed: Witnessed): Promise<void>;
  /** How a submission to the witness `name` ended: an error, or undefined for success. */
  report(name: string, error?: unknown): void;
}

/** A witness that does not answer within this is tried again with the next checkpoint. */
const TIMEOUT_MS = 5_000;

interface WitnessState {
  config: WitnessConfig;
  /** The size the witness last cosigned, as far as svc knows (0 until it said otherwise). */
  size: number;
  inFlight?: Promise<void>;
}

class StaleSize extends Error {
  constructor(readonly size: number) {
    super(`witness holds size ${size}`);
  }
}

/**
 * c2sp.org/tlog-witness client: each new checkpoint goes to every configured witness with a consistency proof from the
 * size that witness last cosigned. A 409 names the witness's size: the checkpoint is sent again from there, once. A
 * witness that is slow or down costs one bounded request per checkpoint and blocks nothing: one request per witness
 * is in flight at a time, and a checkpoint it missed is superseded by the next.
 */
export class WitnessClient {
  private readonly states: WitnessState[];

  constructor(
    witnesses: WitnessConfig[],
    private readonly io: WitnessIo,
  ) {
    this.states = witnesses.map((config) => ({ config, size: 0 }));
  }

  offer(size: number, note: string): void {
    for (const state of this.states) {
      if (state.inFlight || state.size >= size) continue;
      const name = state.config.key.name;
      state.inFlight = this.submit(state, size, note)
        .then(
          () => this.io.report(name),
          (error: unknown) => this.io.report(name, error),
        )
        .finally(() => (state.inFlight = undefined));
    }
  }

  /** Waits for the requests in flight (shutdown, tests). */
  async settled(): Promise<void> {
    await Promise.all(this.states.flatMap((state) => (state.inFlight ? [state.inFlight] : [])));
  }

  private async submit(state: WitnessState, size: number, note: string): Promise<void> {
    try {
      await this.addCheckpoint(state, size, note);
    } catch (error) {
      if (!(error instanceof StaleSize)) throw error;
      state.size = error.size;
      if (error.size < size) await this.addCheckpoint(state, size, note);
    }
  }

  private async addCheckpoint(state: WitnessState, size: number, note: string): Promise<void> {
    const oldSize = Math.min(state.size, size);
    const proof = oldSize > 0 && oldSize < size ? await this.io.proof(size, oldSize) : [];
    const body = [`old ${oldSize}`, ...proof.map((hash) => hash.toString('base64')), '', note].join('\n');
    const response = await fetch(`${state.config.url}/add-checkpoint`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.status === 409 && /^\d+\n?$/.test(text)) throw new StaleSize(Number(text.trim()));
    if (!response.ok) throw new Error(`witness ${state.config.key.name}: HTTP ${response.status} ${text.slice(0, 200)}`);
    const checkpointBody = note.slice(0, note.indexOf('\n\n') + 1);
    const line = text.split('\n').find((candidate) => verifyCosignature(state.config.key, checkpointBody, candidate));
    if (!line) throw new Error(`witness ${state.config.key.name}: no valid cosignature from its key in the answer`);
    state.size = size;
    await this.io.keep(size, { name: state.config.key.name, line });
  }
}
