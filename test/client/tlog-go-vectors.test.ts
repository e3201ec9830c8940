import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatTlogProof,
  formatVerifierKey,
  hashesEqual,
  leafHash,
  LogClient,
  parseTlogProof,
  parseVerifierKey,
  TiledTree,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
  verifyNote,
  verifyTlogProof,
  type VerifiedCheckpoint,
} from '../../packages/client/src/index.js';
import { buildGo, run, serveDirectory, skipWithoutGo } from '../tlog/go.js';

/**
 * The SDK against a log written by Go's golang.org/x/mod/sumdb/tlog and /note (test/tlog/independent/fixture):
 * tiles, partial tiles, checkpoints cosigned by keys the SDK must ignore, Go's roots and proofs. Plus
 * the signed-note spec's own example and a tlog-cosignature/v1 witness signature.
 */

const SIZES = [1, 7, 255, 256, 257, 1000, 65536, 70000];
const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
const entry = (i: number) => new TextEncoder().encode(`entry ${i}`);

interface Vectors {
  origin: string;
  vkey: string;
  checkpoints: Record<string, string>;
  roots: Record<string, string>;
  inclusion: { index: number; size: number; proof: string[] }[];
  consistency: { old: number; new: number; proof: string[] }[];
}

let dir: string;
let served: { url: string; close: () => Promise<void> };
let vectors: Vectors;
let log: LogClient;
const verified = new Map<number, VerifiedCheckpoint>();

describe.skipIf(skipWithoutGo)('the SDK on a log built by Go (x/mod/sumdb/tlog)', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tlog-go-fixture-'));
    const made = await run(await buildGo('fixture'), [dir, SIZES.join(',')]);
    expect(made.code, made.stderr).toBe(0);
    vectors = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8')) as Vectors;
    served = await serveDirectory(dir);
    log = await LogClient.connect(served.url, { logKey: vectors.vkey });
    for (const size of SIZES) verified.set(size, await verifyCheckpoint(vectors.checkpoints[size]!, log.verifiers));
  });
  afterAll(async () => {
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("verifies Go's checkpoints with the log key alone, ignoring a witness's signature and one by the log's name under another key", async () => {
    expect(vectors.checkpoints['70000']!.match(/^\u2014 /gmu)).toHaveLength(3);
    const latest = await log.checkpoint();
    expect([latest.origin, latest.size, latest.verifiedBy.map((v) => v.name)]).toEqual([vectors.origin, 70000, [vectors.origin]]);
    const forged = vectors.checkpoints['70000']!.replace('\n70000\n', '\n70001\n');
    await expect(verifyCheckpoint(forged, log.verifiers)).rejects.toThrow(/does not verify/);
    const logKeyId = log.verifiers[0]!.keyId;
    const unknownOnly = vectors.checkpoints['7']!.split('\n')
      .filter((line) => !line.startsWith('\u2014 ') || Buffer.from(line.split(' ')[2]!, 'base64').readUInt32BE(0) !== logKeyId)
      .join('\n');
    expect(unknownOnly.match(/^\u2014 /gmu)).toHaveLength(2);
    await expect(verifyCheckpoint(unknownOnly, log.verifiers)).rejects.toThrow(/no signature from a known key/);
  });

  it("recomputes Go's root at every published size from the tiles, partial tiles included", async () => {
    for (const size of SIZES) {
      const root = await new TiledTree(log.fetchTile, size).root();
      expect(hashesEqual(root, b64(vectors.roots[size]!)), `size ${size}`).toBe(true);
      expect(hashesEqual(root, verified.get(size)!.root)).toBe(true);
    }
  });

  it('accepts every Go inclusion proof, and builds the same proofs from the tiles', async () => {
    for (const { index, size, proof } of vectors.inclusion) {
      const path = proof.map(b64);
      expect(await verifyInclusion(await leafHash(entry(index)), index, size, path, b64(vectors.roots[size]!)), `${index}@${size}`).toBe(
        true,
      );
      if (SIZES.includes(size)) expect(await new TiledTree(log.fetchTile, size).proveInclusion(index)).toEqual(path);
    }
  });

  it('accepts every Go consistency proof, and builds the same proofs from the tiles', async () => {
    for (const { old, new: size, proof } of vectors.consistency) {
      const path = proof.map(b64);
      expect(await verifyConsistency(old, size, b64(vectors.roots[old]!), b64(vectors.roots[size]!), path), `${old}→${size}`).toBe(true);
      if (SIZES.includes(size)) expect(await new TiledTree(log.fetchTile, size).proveConsistency(old)).toEqual(path);
    }
    const step = await log.step(verified.get(257)!, verified.get(70000)!);
    expect(step).toEqual({ kind: 'grew', from: 257, to: 70000 });
    expect((await log.step(verified.get(70000)!, verified.get(257)!)).kind).toBe('fork');
  });

  it('.tlog-proof: built from the tiles, parsed, verified offline; another entry or index fails', async () => {
    const text = await log.proveInclusion(69_999, verified.get(70000)!);
    expect(text).toMatch(/^c2sp\.org\/tlog-proof@v1\nindex 69999\n(?:[A-Za-z0-9+/]{43}=\n){1,17}\nfixture\.example\/log\n70000\n/);
    const ok = await verifyTlogProof(text, entry(69_999), log.verifiers, { origin: vectors.origin });
    expect([ok.index, ok.checkpoint.size]).toEqual([69_999, 70000]);
    await expect(verifyTlogProof(text, entry(69_998), log.verifiers)).rejects.toThrow(/not at index 69999/);
    await expect(verifyTlogProof(text, entry(69_999), log.verifiers, { origin: 'other.example/log' })).rejects.toThrow(/origin/);
    const withExtra = formatTlogProof({ ...parseTlogProof(text), extra: Uint8Array.of(1, 2, 3) });
    expect(withExtra.split('\n')[1]).toBe('extra AQID');
    expect(parseTlogProof(withExtra).extra).toEqual(Uint8Array.of(1, 2, 3));
    expect(() => parseTlogProof('c2sp.org/tlog-proof@v1\nindex 01\n\n')).toThrow(/index/);
  });
});

describe('signed notes', () => {
  it("verifies c2sp signed-note's own example and rejects it altered", async () => {
    const key = await parseVerifierKey('example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k');
    const note =
      'This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
    expect((await verifyNote(note, [key])).text).toBe('This is an example message.\n');
    await expect(verifyNote(note.replace('example message', 'exemple message'), [key])).rejects.toThrow(/does not verify/);
    await expect(parseVerifierKey('example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k')).rejects.toThrow(/key ID/);
    await expect(verifyNote('text\n\n\u2014 example.com/foo !!!\n', [key])).rejects.toThrow(/malformed signature line/);
    await expect(verifyNote('no blank line\n', [key])).rejects.toThrow(/blank line/);
  });

  it('checks a tlog-cosignature/v1 line by a trusted witness key (type 0x04) and ignores it without the key', async () => {
    const log = generateKeyPairSync('ed25519');
    const witness = generateKeyPairSync('ed25519');
    const raw = (k: typeof log) => new Uint8Array(k.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
    const logKey = await parseVerifierKey(await formatVerifierKey('log.example/a', 0x01, raw(log)));
    const witnessKey = await parseVerifierKey(await formatVerifierKey('witness.example/w', 0x04, raw(witness)));
    const text = 'log.example/a\n5\n' + Buffer.alloc(32, 7).toString('base64') + '\n';
    const line = (name: string, keyId: number, sig: Buffer) => {
      const id = Buffer.alloc(4);
      id.writeUInt32BE(keyId);
      return `\u2014 ${name} ${Buffer.concat([id, sig]).toString('base64')}\n`;
    };
    const time = Buffer.alloc(8);
    time.writeBigUInt64BE(1_700_000_000n);
    const cosig = Buffer.concat([time, sign(null, Buffer.from(`cosignature/v1\ntime 1700000000\n${text}`), witness.privateKey)]);
    const signed = `${text}\n${line('log.example/a', logKey.keyId, sign(null, Buffer.from(text), log.privateKey))}`;
    const note = signed + line('witness.example/w', witnessKey.keyId, cosig);
    expect((await verifyCheckpoint(note, [logKey])).verifiedBy).toEqual([logKey]);
    expect((await verifyCheckpoint(note, [logKey, witnessKey])).verifiedBy).toEqual([logKey, witnessKey]);
    const backdated = signed + line('witness.example/w', witnessKey.keyId, Buffer.concat([Buffer.alloc(8), cosig.subarray(8)]));
    await expect(verifyCheckpoint(backdated, [logKey, witnessKey])).rejects.toThrow(/witness\.example\/w.*does not verify/);
    await expect(verifyCheckpoint(note, [witnessKey])).rejects.toThrow(/not signed by a known key of its origin/);
  });
});
