import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createClient,
  LogClient,
  parseVerifierKey,
  verifyCheckpoint,
  type Receipt,
  type SvcClient,
  type VerifiedCheckpoint,
} from '../../packages/client/src/index.js';
import { buildGo, run, skipWithoutGo, startWitness, type Run, type Witness } from './go.js';
import { startDemoServer, waitFor, type DemoServer } from '../helpers/demo-server.js';
import { freePort } from '../helpers/ports.js';
import { entryArgs } from '../helpers/entry.js';

/**
 * Issue 36's acceptance, against a real demo server: programs that are not svc's code (the Go verifier on
 * x/mod/sumdb, the witness written from the C2SP texts) find every receipt of a session of mixed calls
 * at its log.index, recompute the root from /log/tile/*, verify consistency between two checkpoints,
 * and cosign svc's checkpoints, which svc serves at SVC_LOG_WITNESS_QUORUM=1 and the SDK still verifies
 * with the log key alone.
 */
const CLI = entryArgs('packages/client/src/cli.ts');

let dir: string;
let server: DemoServer;
let witness: Witness;
let verifier: string;
let logKey: string;
let client: SvcClient;
let log: LogClient;
const answers: Record<string, unknown>[] = [];

const receiptOf = (answer: Record<string, unknown>) => answer._receipt as Receipt;

/**
 * A session of mixed calls, each answer signed and logged. Each session asks other questions: a cached
 * resend of an answer is signed again but not logged again (docs/transparency-log.md).
 */
async function session(tag: string, queries: { preview: [string, string]; bundle: [string, string]; asset: string }) {
  const agent = `tlog-e2e:${tag}`;
  const to = Math.floor(Date.now() / 1000);
  return (await Promise.all([
    client.query({ type: queries.preview[0], q: queries.preview[1] } as Parameters<SvcClient['query']>[0]),
    client.bundle({ queries: [{ type: queries.bundle[0], q: queries.bundle[1] }] } as Parameters<SvcClient['bundle']>[0], { free: true }),
    client.backtest({ type: 'crypto-price', q: queries.asset, interval: '1h', from: to - 86_400, to }),
    client.calib.recordClaim({
      agent_id: agent,
      kind: 'rain',
      predicted_p: 0.6,
      payload: {},
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: 24,
    }),
  ])) as Record<string, unknown>[];
}

/** Waits until the published checkpoint includes every entry up to `index`. */
const checkpointCovering = (index: number): Promise<VerifiedCheckpoint> =>
  waitFor(`a checkpoint past entry ${index}`, async () => {
    const checkpoint = await log.checkpoint();
    return checkpoint.size > index ? checkpoint : undefined;
  });

const maxIndex = (list: Record<string, unknown>[]) => Math.max(...list.map((a) => receiptOf(a).log!.index));

function svc(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { env: { ...process.env, SVC_BASE_URL: server.url }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(skipWithoutGo)("svc's transparency log checked by independent programs", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tlog-e2e-'));
    const [verifierBinary, witnessBinary] = await Promise.all([buildGo('verifier'), buildGo('witness')]);
    verifier = verifierBinary;
    const keyFile = join(dir, 'witness.key');
    const witnessKey = (await run(witnessBinary, ['-keygen', '-name', 'witness.test/w1', '-key-file', keyFile])).stdout.trim();
    const witnessPort = await freePort();
    server = await startDemoServer({
      SVC_LOG_WITNESSES: `${witnessKey}=http://127.0.0.1:${witnessPort}`,
      SVC_LOG_WITNESS_QUORUM: '1',
    });
    logKey = (await (await fetch(`${server.url}/log/key`)).text()).trim();
    witness = await startWitness(witnessBinary, [
      '-name',
      'witness.test/w1',
      '-key-file',
      keyFile,
      '-log',
      logKey,
      '-listen',
      `127.0.0.1:${witnessPort}`,
    ]);
    client = createClient({ baseUrl: server.url });
    log = await LogClient.connect(server.url, { logKey });
    answers.push(...(await session('first', { preview: ['crypto-price', 'bitcoin'], bundle: ['crypto-price', 'solana'], asset: 'BTC' })));
  }, 300_000);
  afterAll(async () => {
    witness?.process.kill();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every answer of the session carries a signed log position in this log, each at its own index', () => {
    const positions = answers.map((a) => receiptOf(a).log);
    expect(positions.every((p) => p?.origin === log.origin && Number.isSafeInteger(p.index))).toBe(true);
    expect(new Set(positions.map((p) => p!.index)).size).toBe(answers.length);
  });

  it('the Go verifier verifies the checkpoint, recomputes the root from the tiles and finds every receipt at its log.index; after more calls, the next checkpoint is consistent with it', async () => {
    await checkpointCovering(maxIndex(answers));
    const receipts = join(dir, 'receipts.json');
    writeFileSync(receipts, JSON.stringify(answers.map(receiptOf)));
    const saved = join(dir, 'checkpoint.first');
    const first = await run(verifier, ['-url', server.url, '-key', logKey, '-receipts', receipts, '-save', saved]);
    expect(first.code, first.stderr).toBe(0);
    const before = JSON.parse(first.stdout) as { size: number; receipts_found: number; origin: string };
    expect([before.origin, before.receipts_found]).toEqual([log.origin, answers.length]);

    const more = await session('second', { preview: ['stock-quote', 'AAPL'], bundle: ['forex', 'EUR:USD'], asset: 'ETH' });
    await checkpointCovering(maxIndex(more));
    writeFileSync(receipts, JSON.stringify([...answers, ...more].map(receiptOf)));
    const second = await run(verifier, ['-url', server.url, '-key', logKey, '-receipts', receipts, '-old', saved]);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ consistent_with: before.size, receipts_found: answers.length + more.length });
    expect(JSON.parse(second.stdout).size).toBeGreaterThan(before.size);
    answers.push(...more);
  });

  it('the witness cosigns svc’s checkpoint; svc serves it cosigned (quorum 1) and the SDK verifies it with the log key alone and with both keys', async () => {
    const note = await (await fetch(`${server.url}/log/checkpoint`)).text();
    expect(note).toMatch(/^\u2014 witness\.test\/w1 /mu);
    const witnessKey = await parseVerifierKey(witness.vkey);
    const logOnly = await verifyCheckpoint(note, log.verifiers);
    expect(logOnly.verifiedBy.map((k) => k.name)).toEqual([log.origin]);
    const both = await verifyCheckpoint(note, [...log.verifiers, witnessKey]);
    expect(both.verifiedBy.map((k) => k.name).sort()).toEqual([log.origin, 'witness.test/w1'].sort());
  });

  it('the SDK: each receipt verifies with its inclusion proof; another entry’s proof or a changed receipt does not', async () => {
    for (const answer of answers) {
      const proof = await log.proof(receiptOf(answer).log!.index);
      const verdict = await client.verifyReceipt(answer, { inclusion: { proof, logKeys: log.verifiers } });
      expect(verdict).toMatchObject({ valid: true, log: receiptOf(answer).log });
      expect(verdict.valid && verdict.checked).toMatch(/\+inclusion$/);
    }
    const [a, b] = [receiptOf(answers[0]!), receiptOf(answers[1]!)];
    const otherProof = await log.proof(b.log!.index);
    expect(await client.verifyReceipt(a, { inclusion: { proof: otherProof, logKeys: log.verifiers } })).toMatchObject({
      valid: false,
      reason: 'not_included',
    });
    const proof = await log.proof(a.log!.index);
    const built = await log.proveInclusion(a.log!.index, await log.checkpoint());
    expect((await client.verifyReceipt(a, { inclusion: { proof: built, logKeys: log.verifiers } })).valid).toBe(true);
    expect((await client.verifyReceipt(a, { inclusion: { proof, logKeys: log.verifiers } })).valid).toBe(true);
  });

  it('the SDK monitor reads every entry: all valid receipts at their index, the root recomputed, every tile checked', async () => {
    const checkpoint = await log.checkpoint();
    const report = await log.monitor(checkpoint, { receiptKeys: await client.receiptKeys() });
    expect(report).toMatchObject({ size: checkpoint.size, rootMatches: true, problems: [] });
  });

  it('the CLI: svc verify --log, svc log proof beside the answer, svc log watch, svc log monitor', async () => {
    const file = join(dir, 'answer.json');
    writeFileSync(file, JSON.stringify(answers[0]));
    const fetched = await svc(['verify', file, '--log', '--log-key', logKey]);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toMatch(/^valid \(signature\+response\+inclusion\).*entry \d+ of /);
    const saved = await svc(['log', 'proof', file, '--log-key', logKey]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toMatch(/^wrote .*answer\.tlog-proof: entry \d+ of /);
    // The proof kept beside an answer is the one checked: beside another answer, it fails.
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify(answers[1]));
    copyFileSync(join(dir, 'answer.tlog-proof'), join(dir, 'other.tlog-proof'));
    const wrong = await svc(['verify', other, '--log', '--log-key', logKey]);
    expect([wrong.code, wrong.stdout]).toEqual([1, expect.stringMatching(/^INVALID: not_included/)]);
    const explicit = await svc(['verify', other, '--log', '--log-key', logKey, '--proof', join(dir, 'answer.tlog-proof')]);
    expect(explicit.code).toBe(1);
    const watched = await svc([
      'log',
      'watch',
      '--log-key',
      logKey,
      '--count',
      '2',
      '--interval',
      '1',
      '--state',
      join(dir, 'watch.state'),
    ]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/^first: \S+ size \d+ root \S+ \(signed by \S+\)\n/);
    const monitored = await svc(['log', 'monitor', '--log-key', logKey]);
    expect(monitored.code, monitored.stderr).toBe(0);
    expect(monitored.stdout).toMatch(/entries, root matches the checkpoint/);
  });
});
