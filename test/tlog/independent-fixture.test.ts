import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseVerifierKey, verifyCheckpoint, type NoteVerifier } from '../../packages/client/src/index.js';
import { buildGo, run, serveDirectory, skipWithoutGo, startWitness, type Witness } from './go.js';

/**
 * The independent Go programs on a log written by Go's x/mod/sumdb/tlog (the fixture), before they
 * meet svc: the verifier recomputes the root and checks consistency, the witness (written from the
 * C2SP texts) applies every add-checkpoint rule, and its cosignatures verify with the SDK.
 */

interface Vectors {
  origin: string;
  vkey: string;
  checkpoints: Record<string, string>;
  consistency: { old: number; new: number; proof: string[] }[];
}

let dir: string;
let vectors: Vectors;
let served: { url: string; close: () => Promise<void> };
let verifier: string;
let witness: Witness;
let witnessBinaryPath: string;
let witnessArgs: string[];
let trusted: NoteVerifier[];

const proofOf = (old: number, size: number) => vectors.consistency.find((c) => c.old === old && c.new === size)!.proof;
const post = (body: string) => fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body });
const request = (old: number, proof: string[], checkpoint: string) =>
  `old ${old}\n${proof.map((line) => `${line}\n`).join('')}\n${checkpoint}`;

describe.skipIf(skipWithoutGo)('independent verifier and witness on a Go-built log', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tlog-independent-'));
    const [fixture, verifierBinary, witnessBinary] = await Promise.all([buildGo('fixture'), buildGo('verifier'), buildGo('witness')]);
    verifier = verifierBinary;
    expect((await run(fixture, [dir, '7,257,1000'])).code).toBe(0);
    vectors = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8')) as Vectors;
    served = await serveDirectory(dir);
    const keyFile = join(dir, 'witness.key');
    const made = await run(witnessBinary, ['-keygen', '-name', 'witness.test/w1', '-key-file', keyFile]);
    expect(made.code, made.stderr).toBe(0);
    witnessArgs = ['-name', 'witness.test/w1', '-key-file', keyFile, '-log', vectors.vkey, '-state', join(dir, 'witness.state')];
    witnessBinaryPath = witnessBinary;
    witness = await startWitness(witnessBinary, witnessArgs);
    expect(witness.vkey).toBe(made.stdout.trim());
    trusted = [await parseVerifierKey(vectors.vkey), await parseVerifierKey(witness.vkey)];
  });
  afterAll(async () => {
    witness?.process.kill();
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('verifier: checks the signature, recomputes the root from every tile, and checks consistency with an older checkpoint', async () => {
    const old = join(dir, 'old-checkpoint');
    writeFileSync(old, vectors.checkpoints['257']!);
    const ok = await run(verifier, ['-url', served.url, '-key', vectors.vkey, '-old', old]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ origin: vectors.origin, size: 1000, consistent_with: 257 });
    writeFileSync(
      old,
      vectors.checkpoints['257']!.replace(/^\u2014 .*\n/gmu, (line) => line.replace(/[A-Za-z0-9+/]{4}=\n$/u, 'AAA=\n')),
    );
    const forged = await run(verifier, ['-url', served.url, '-key', vectors.vkey, '-old', old]);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(/invalid signature|malformed/);
  });

  it('witness: cosigns from size 0, answers 409 with its size, then cosigns a consistent checkpoint; the SDK verifies its cosignatures', async () => {
    const first = await post(request(0, [], vectors.checkpoints['7']!));
    const line = await first.text();
    expect(first.status, line).toBe(200);
    expect(line).toMatch(/^\u2014 witness\.test\/w1 [A-Za-z0-9+/]+=*\n$/u);
    const cosigned = await verifyCheckpoint(vectors.checkpoints['7']! + line, trusted);
    expect(cosigned.verifiedBy.map((k) => k.name)).toEqual([vectors.origin, 'witness.test/w1']);

    const stale = await post(request(0, [], vectors.checkpoints['257']!));
    expect([stale.status, stale.headers.get('content-type'), await stale.text()]).toEqual([409, 'text/x.tlog.size', '7\n']);
    const next = await post(request(7, proofOf(7, 257), vectors.checkpoints['257']!));
    expect(next.status, await next.clone().text()).toBe(200);
    await verifyCheckpoint(vectors.checkpoints['257']! + (await next.text()), trusted);

    const originHash = createHash('sha256').update(vectors.origin).digest('hex');
    const served = await fetch(`${witness.url}/${originHash}/checkpoint`);
    const monitored = await verifyCheckpoint(await served.text(), trusted);
    expect([monitored.size, monitored.verifiedBy.length]).toEqual([257, 2]);
  });

  it('witness: 422 on a bad consistency proof, 200 again at the same size and root, 400 on old > size, 404 on an unknown origin, 403 without a trusted signature', async () => {
    const proof = proofOf(257, 1000);
    const flipped = [...proof.slice(0, -1), Buffer.alloc(32, 1).toString('base64')];
    expect((await post(request(257, flipped, vectors.checkpoints['1000']!))).status).toBe(422);
    expect((await post(request(257, [], vectors.checkpoints['257']!))).status).toBe(200);
    expect((await post(request(2000, [], vectors.checkpoints['1000']!))).status).toBe(400);
    expect(
      (await post(request(257, proof, vectors.checkpoints['1000']!.replaceAll('fixture.example/log', 'other.example/log')))).status,
    ).toBe(404);
    const unsigned = vectors.checkpoints['1000']!.replace(/^\u2014 fixture\.example\/log .*\n/mu, '').replace(
      /^\u2014 fixture\.example\/log .*\n/mu,
      '',
    );
    expect((await post(request(257, proof, unsigned))).status).toBe(403);
    const tampered = vectors.checkpoints['1000']!.replace('\n1000\n', '\n1001\n');
    expect((await post(request(257, proof, tampered))).status).toBe(403);
    expect((await post(request(257, proof, vectors.checkpoints['1000']!))).status).toBe(200);
  });

  it('witness: its latest cosigned size survives a restart (-state), so a rollback to an older size is refused with 409', async () => {
    witness.process.kill();
    witness = await startWitness(witnessBinaryPath, witnessArgs);
    const stale = await post(request(257, proofOf(257, 1000), vectors.checkpoints['1000']!));
    expect([stale.status, await stale.text()]).toEqual([409, '1000\n']);
  });
});
