import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign } from 'node:crypto';
import vectors from './vectors/go-sumdb-tlog.json' with { type: 'json' };
import {
  checkpointBody,
  noteKeyId,
  noteSigner,
  parseCosignerKey,
  parseNote,
  privateKeyFromSeed,
  rawPublicKey,
  signNote,
  verifierKey,
  verifyCosignature,
} from '../../src/core/signed-note.js';
import { loadLogKey } from '../../src/tlog/log-key.js';

describe('signed notes and checkpoints', () => {
  const signer = noteSigner('example.com/log', privateKeyFromSeed(Buffer.from(vectors.note.seed_hex, 'hex')));

  it('signs a checkpoint byte for byte as golang.org/x/mod/sumdb/note does, with the same verifier key', () => {
    const [origin, size, root] = vectors.note.signed.split('\n');
    expect(signNote(signer, checkpointBody(origin!, Number(size), Buffer.from(root!, 'base64')))).toBe(vectors.note.signed);
    expect(verifierKey(signer)).toBe(vectors.note.vkey);
  });

  it('computes the key id as SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4] (the C2SP example key)', () => {
    const key = Buffer.from('AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k', 'base64').subarray(1);
    expect(noteKeyId('example.com/foo', 0x01, key).toString('hex')).toBe('530d903a');
  });

  it('splits a note at its last blank line', () => {
    const parsed = parseNote(vectors.note.signed)!;
    expect(parsed.text).toBe(vectors.note.signed.slice(0, vectors.note.signed.indexOf('\n\n') + 1));
    expect(parsed.signatures.map((s) => s.name)).toEqual(['example.com/log']);
    expect(parseNote('no blank line\n')).toBeUndefined();
  });

  it('refuses a key name with a space or a plus', () => {
    expect(() => noteSigner('a b', signer.privateKey)).toThrow(/name/);
    expect(() => noteSigner('a+b', signer.privateKey)).toThrow(/name/);
  });
});

describe('witness cosignatures', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(privateKey);
  const vkey = `witness.example/w1+${noteKeyId('witness.example/w1', 0x04, raw).toString('hex')}+${Buffer.concat([Buffer.from([4]), raw]).toString('base64')}`;
  const body = 'example.com/log\n5\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
  const cosign = (timestamp: bigint, text: string) => {
    const stamp = Buffer.alloc(8);
    stamp.writeBigUInt64BE(timestamp);
    const sig = sign(null, Buffer.from(`cosignature/v1\ntime ${timestamp}\n${text}`), privateKey);
    return `— witness.example/w1 ${Buffer.concat([noteKeyId('witness.example/w1', 0x04, raw), stamp, sig]).toString('base64')}`;
  };

  it('verifies a tlog-cosignature/v1 line from the configured key and nothing else', () => {
    const key = parseCosignerKey(vkey);
    expect(verifyCosignature(key, body, cosign(1_700_000_000n, body))).toBe(true);
    expect(verifyCosignature(key, body, cosign(1_700_000_000n, body.replace('5', '6')))).toBe(false);
    expect(verifyCosignature(key, body, cosign(1_700_000_000n, body).replace('w1', 'w2'))).toBe(false);
  });

  it('rejects a vkey of the wrong type or with a key id that does not match', () => {
    expect(() => parseCosignerKey(vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toThrow(/key id/);
    expect(() => parseCosignerKey(verifierKey(noteSigner('w', privateKey)))).toThrow(/0x04/);
  });
});

describe('the log key', () => {
  it('is derived from the receipt key by default: stable, and not the receipt key', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const a = loadLogKey(undefined, privateKey, 'svc.example.com/log');
    const b = loadLogKey(undefined, privateKey, 'svc.example.com/log');
    expect(a.publicKey.equals(b.publicKey)).toBe(true);
    expect(a.publicKey.equals(rawPublicKey(privateKey))).toBe(false);
  });

  it('is SVC_LOG_KEY when given', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const configured = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    expect(loadLogKey(configured, generateKeyPairSync('ed25519').privateKey, 'x/log').publicKey.equals(rawPublicKey(privateKey))).toBe(
      true,
    );
  });
});
