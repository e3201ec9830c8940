import { existsSync, readFileSync } from 'node:fs';
import { Option } from 'commander';
import { LogClient } from './tlog/client.js';
import { CliFailure, EXIT } from './cli-shared.js';

/** Pinning the log key (and witness keys) the way every log command accepts it. */
export interface LogKeyOptions {
  logKey?: string;
  witnessKey?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const logKeyOptions = {
  logKey: () =>
    new Option('--log-key <vkey>', "the log's verifier key, pinned (default: what <base-url>/log/key answers, trusted on first use)").env(
      'SVC_LOG_VKEY',
    ),
  witnessKey: () =>
    new Option('--witness-key <vkey>', 'a witness key whose cosignature must verify when present (repeatable)').argParser(collect),
};

export const connectLog = (baseUrl: string, o: LogKeyOptions): Promise<LogClient> =>
  LogClient.connect(baseUrl, { logKey: o.logKey, witnessKeys: o.witnessKey ?? [] });

/** The `.tlog-proof` an agent keeps next to an answer: `answer.json` → `answer.tlog-proof`. */
export const proofPathFor = (file: string): string => `${file.replace(/\.json$/i, '')}.tlog-proof`;

/** The receipt of a saved answer (or a bare receipt) and its log position, if it carries one. */
export function logPositionOf(saved: unknown): { origin: string; index: number } | undefined {
  const record = saved as { _receipt?: { log?: unknown }; log?: unknown } | null;
  const log = (record?._receipt ?? record)?.log as { origin?: unknown; index?: unknown } | undefined;
  return typeof log?.origin === 'string' && Number.isSafeInteger(log.index)
    ? { origin: log.origin, index: log.index as number }
    : undefined;
}

/** The proof to check `saved` with: `--proof`, else the file kept beside it, else svc's proof endpoint. */
export async function proofFor(file: string, saved: unknown, log: LogClient, explicit?: string): Promise<string> {
  const position = logPositionOf(saved);
  if (!position) throw new CliFailure(`${file}: the receipt carries no log position (it was not logged)`, EXIT.invalid);
  const path = explicit ?? proofPathFor(file);
  if (explicit || existsSync(path)) return readFileSync(path, 'utf8');
  return log.proof(position.index);
}
