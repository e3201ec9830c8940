import type { Env } from './config-env.js';
import { parseCosignerKey, type CosignerKey } from './core/signed-note.js';

/** A witness svc sends its checkpoints to: its cosigning key and base URL (`<url>/add-checkpoint`). */
export interface WitnessConfig {
  key: CosignerKey;
  url: string;
}

export interface TlogConfig {
  origin: string;
  /** SVC_LOG_KEY as given; undefined = derived from the receipt signing key. */
  key?: string;
  checkpointIntervalMs: number;
  witnesses: WitnessConfig[];
  witnessQuorum: number;
}

/** One `<vkey>=<url>` item; base64 pads with `=` only at its end, so the URL starts at the first `=http`. */
function readWitness(item: string, problems: string[]): WitnessConfig[] {
  const match = /^(.+?)=(https?:\/\/\S+)$/.exec(item.trim());
  if (!match) {
    problems.push(`SVC_LOG_WITNESSES: "${item.trim()}" is not <witness verifier key>=<http(s) base URL>`);
    return [];
  }
  try {
    return [{ key: parseCosignerKey(match[1]!), url: match[2]!.replace(/\/+$/, '') }];
  } catch (error) {
    problems.push(`SVC_LOG_WITNESSES: ${(error as Error).message}`);
    return [];
  }
}

/**
 * The log's settings; the origin defaults to the public URL's host + `/log` (localhost when the public URL is itself
 * invalid: that variable's problem is reported on its own line).
 */
export function readTlog(parsed: Env, publicUrl: string, problems: string[]): TlogConfig {
  const witnesses = (parsed.SVC_LOG_WITNESSES ?? '')
    .split(',')
    .filter((item) => item.trim() !== '')
    .flatMap((item) => readWitness(item, problems));
  if (parsed.SVC_LOG_WITNESS_QUORUM > witnesses.length)
    problems.push(
      `SVC_LOG_WITNESS_QUORUM: ${parsed.SVC_LOG_WITNESS_QUORUM} cosignatures cannot come from ${witnesses.length} SVC_LOG_WITNESSES`,
    );
  return {
    origin: parsed.SVC_LOG_ORIGIN ?? `${URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost'}/log`,
    ...(parsed.SVC_LOG_KEY ? { key: parsed.SVC_LOG_KEY } : {}),
    checkpointIntervalMs: parsed.SVC_LOG_CHECKPOINT_INTERVAL_MS,
    witnesses,
    witnessQuorum: parsed.SVC_LOG_WITNESS_QUORUM,
  };
}
