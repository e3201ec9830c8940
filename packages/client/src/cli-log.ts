import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Option } from 'commander';
import { base64Encode } from './bytes.js';
import type { VerifiedCheckpoint } from './tlog/checkpoint.js';
import type { LogClient } from './tlog/client.js';
import { TlogError } from './tlog/errors.js';
import { CliFailure, EXIT, integer, readJsonFile, type CliContext } from './cli-shared.js';
import { connectLog, logKeyOptions, logPositionOf, proofPathFor, type LogKeyOptions } from './cli-log-shared.js';

/**
 * `svc log …`: watch the log's checkpoints for a fork, monitor every entry, keep a `.tlog-proof` next
 * to an answer. Every checkpoint is verified against the log key (pin it with --log-key).
 */

const describe = (c: VerifiedCheckpoint) =>
  `${c.origin} size ${c.size} root ${base64Encode(c.root)} (signed by ${c.verifiedBy.map((v) => v.name).join(', ')})`;

interface WatchFlags extends LogKeyOptions {
  interval: number;
  count?: number;
  state?: string;
}

/** The last checkpoint a previous run saw, from --state: a fork across runs is a fork too. */
async function previousCheckpoint(log: LogClient, state: string | undefined): Promise<VerifiedCheckpoint | undefined> {
  if (!state || !existsSync(state)) return undefined;
  return log.verifyCheckpointNote(readFileSync(state, 'utf8'));
}

async function watch({ globals, out }: CliContext, o: WatchFlags): Promise<void> {
  const log = await connectLog(globals().baseUrl, o);
  let previous = await previousCheckpoint(log, o.state);
  for (let polls = 0; o.count === undefined || polls < o.count; polls += 1) {
    if (polls > 0) await sleep(o.interval * 1000);
    const current = await log.checkpoint().catch((error: unknown) => {
      if (error instanceof TlogError) throw new CliFailure(`bad checkpoint: ${error.message}`, EXIT.invalid);
      throw error;
    });
    const step = previous ? await log.step(previous, current) : undefined;
    if (step?.kind === 'fork')
      throw new CliFailure(
        `FORK: size ${step.from} → ${step.to}: ${step.reason}\nbefore: ${describe(previous!)}\nnow:    ${describe(current)}`,
        EXIT.invalid,
      );
    if (globals().json)
      out(JSON.stringify({ origin: current.origin, size: current.size, root: base64Encode(current.root), step: step?.kind ?? 'first' }));
    else if (step?.kind !== 'same') out(`${step ? `consistent ${step.from} → ${step.to}` : 'first'}: ${describe(current)}`);
    if (o.state) writeFileSync(o.state, current.note);
    previous = current;
  }
}

async function monitor({ globals, show, call }: CliContext, o: LogKeyOptions): Promise<void> {
  const log = await connectLog(globals().baseUrl, o);
  const checkpoint = await log.checkpoint();
  const receiptKeys = await call('fetching the receipt keys', (c) => c.receiptKeys());
  const progress = (checked: number, size: number) => process.stderr.isTTY && process.stderr.write(`\r${checked}/${size} entries`);
  const report = await log.monitor(checkpoint, { receiptKeys, onProgress: progress });
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  show(report, (r) =>
    [
      `${r.origin}: ${r.size} entries, root ${r.rootMatches ? 'matches the checkpoint' : 'DOES NOT MATCH'}, ${r.tilesChecked} tiles checked`,
      ...r.problems,
    ].join('\n'),
  );
  if (report.problems.length > 0 || !report.rootMatches)
    throw new CliFailure(`${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} in the log`, EXIT.invalid);
}

async function saveProof({ globals, out }: CliContext, file: string, o: LogKeyOptions & { out?: string }): Promise<void> {
  const position = logPositionOf(readJsonFile(file));
  if (!position) throw new CliFailure(`${file}: the receipt carries no log position (it was not logged)`, EXIT.invalid);
  const log = await connectLog(globals().baseUrl, o);
  const proof = await log.proof(position.index);
  const path = o.out ?? proofPathFor(file);
  writeFileSync(path, proof);
  out(`wrote ${path}: entry ${position.index} of ${position.origin}`);
}

export function registerLogCommands(context: CliContext): void {
  const log = context.program.command('log').description("svc's transparency log: every signed answer, append-only (c2sp.org/tlog-tiles)");
  log
    .command('watch')
    .description('poll the checkpoint and check each is consistent with the one before; exit 1 on a fork or a bad signature')
    .addOption(new Option('--interval <seconds>', 'seconds between polls').argParser(integer).default(10))
    .addOption(new Option('--count <n>', 'stop after this many polls (default: run until stopped)').argParser(integer))
    .option('--state <file>', 'keep the last checkpoint in this file and check the next run against it')
    .addOption(logKeyOptions.logKey())
    .addOption(logKeyOptions.witnessKey())
    .action((o: WatchFlags) => watch(context, o));
  log
    .command('monitor')
    .description(
      'read every entry and tile, recompute the root, check every entry is a valid receipt at its log.index; exit 1 on any problem',
    )
    .addOption(logKeyOptions.logKey())
    .addOption(logKeyOptions.witnessKey())
    .action((o: LogKeyOptions) => monitor(context, o));
  log
    .command('proof')
    .description('save the .tlog-proof of a saved answer next to it (answer.json → answer.tlog-proof)')
    .argument('<file>', 'JSON file: a body with _receipt or a bare receipt')
    .option('--out <file>', 'where to write it')
    .addOption(logKeyOptions.logKey())
    .action((file: string, o: LogKeyOptions & { out?: string }) => saveProof(context, file, o));
}
