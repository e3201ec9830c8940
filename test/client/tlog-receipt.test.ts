import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import {
  formatTlogProof,
  formatVerifierKey,
  jwkThumbprint,
  leafHash,
  merkleRoot,
  parseVerifierKey,
  TiledTree,
  tilePath,
  verifyReceipt,
  type ReceiptJwk,
} from '../../packages/client/src/index.js';

/**
 * `verifyReceipt`'s inclusion check, offline: receipts signed here, logged in a three-entry log whose
 * checkpoint is signed by a log key made here, each checked with its `.tlog-proof`.
 */
const canonical = (value: unknown) => (canonicalize as unknown as (v: unknown) => string)(value);
const raw = (key: KeyObject) => new Uint8Array(key.export({ format: 'der', type: 'spki' }).subarray(-32));

async function fixture() {
  const receiptKey = generateKeyPairSync('ed25519');
  const x = Buffer.from(raw(receiptKey.publicKey)).toString('base64url');
  const jwk: ReceiptJwk = { kty: 'OKP', crv: 'Ed25519', x, kid: await jwkThumbprint({ x }) };
  const origin = 'svc.test/log';
  const signed = <T extends object>(unsigned: T) => ({
    ...unsigned,
    sig: `ed25519-${sign(null, Buffer.from(canonical(unsigned)), receiptKey.privateKey).toString('base64url')}`,
  });
  const receipts = [0, 1, 2].map((index) =>
    signed({
      v: 1,
      request_hash: `sha256-${'A'.repeat(43)}`,
      response_hash: `sha256-${'B'.repeat(43)}`,
      as_of: 1_700_000_000 + index,
      issued_at: 1_700_000_000 + index,
      sources: ['test'],
      issuer: 'svc.test',
      log: { origin, index },
      kid: jwk.kid,
    }),
  );
  const leaves = await Promise.all(receipts.map((r) => leafHash(new TextEncoder().encode(canonical(r)))));
  const tile = new Uint8Array(leaves.flatMap((h) => [...h]));
  const tree = new TiledTree(async (path) => (path === tilePath(0, 0, 3) ? tile : Promise.reject(new Error(path))), 3);
  const logKeyPair = generateKeyPairSync('ed25519');
  const logKey = await parseVerifierKey(await formatVerifierKey(origin, 0x01, raw(logKeyPair.publicKey)));
  const text = `${origin}\n3\n${Buffer.from(await merkleRoot(leaves)).toString('base64')}\n`;
  const id = Buffer.alloc(4);
  id.writeUInt32BE(logKey.keyId);
  const signature = Buffer.concat([id, sign(null, Buffer.from(text), logKeyPair.privateKey)]).toString('base64');
  const checkpoint = `${text}\n\u2014 ${origin} ${signature}\n`;
  const proofOf = async (index: number) => formatTlogProof({ index, path: await tree.proveInclusion(index), checkpoint });
  return { jwk, receipts, signed, logKeys: [logKey], proofOf };
}

describe('verifyReceipt with an inclusion proof', () => {
  it('passes a logged receipt with its proof, and says what failed otherwise', async () => {
    const { jwk, receipts, signed, logKeys, proofOf } = await fixture();
    const [first, second] = [receipts[0]!, receipts[1]!];
    expect(await verifyReceipt(second, jwk, { inclusion: { proof: await proofOf(1), logKeys } })).toMatchObject({
      valid: true,
      checked: 'signature+inclusion',
      log: { origin: 'svc.test/log', index: 1, tree_size: 3 },
    });
    expect(await verifyReceipt(second, jwk, { inclusion: { proof: await proofOf(0), logKeys } })).toMatchObject({
      valid: false,
      reason: 'not_included',
      message: expect.stringMatching(/not at index 0/),
    });
    const { log: _log, sig: _sig, ...unlogged } = first;
    expect(await verifyReceipt({ ...unlogged, sig: first.sig }, jwk, { inclusion: { proof: await proofOf(0), logKeys } })).toMatchObject({
      valid: false,
      reason: 'bad_signature',
    });
    expect(await verifyReceipt(signed(unlogged), jwk, { inclusion: { proof: await proofOf(0), logKeys } })).toEqual({
      valid: false,
      reason: 'not_logged',
    });
    const otherLogKey = await parseVerifierKey('example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k');
    expect(await verifyReceipt(first, jwk, { inclusion: { proof: await proofOf(0), logKeys: [otherLogKey] } })).toMatchObject({
      valid: false,
      reason: 'not_included',
      message: expect.stringMatching(/no signature from a known key/),
    });
    expect(await verifyReceipt(first, jwk)).toMatchObject({ valid: true, checked: 'signature' });
    expect(await verifyReceipt({ ...first, log: { origin: 'x', index: -1 } }, jwk)).toEqual({ valid: false, reason: 'malformed' });
  });
});
