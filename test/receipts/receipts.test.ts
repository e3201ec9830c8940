import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJWK } from 'jose';
import { ed25519 } from '@noble/curves/ed25519';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { loadSigningKey } from '../../src/core/signing-keys.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function signedPreview() {
  const res = await t.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin' } });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown> & { _receipt: Record<string, unknown> };
}

const verify = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: body }).then((r) => r.json());

describe('receipts', () => {
  it('round-trips: a fresh receipt verifies, with and without the response', async () => {
    const body = await signedPreview();
    const receipt = body._receipt;
    expect(receipt).toMatchObject({ v: 1, issuer: 'svc.test', kid: t.deps.signingKey.kid, sources: ['coingecko'], as_of: 1711356298 });
    expect(await verify({ receipt })).toEqual({
      valid: true,
      kid: receipt.kid,
      issued_at: receipt.issued_at,
      as_of: receipt.as_of,
      source_mode: 'live',
      // The receipt is logged: pending until a checkpoint covers it (test/tlog/read-api.test.ts follows it there).
      log: { status: expect.stringMatching(/^(pending|included)$/), checkpoint_size: expect.any(Number) },
    });
    expect(await verify({ receipt, response: body })).toMatchObject({ valid: true });
  });

  it('fails every single-field alteration', async () => {
    const { _receipt: receipt } = await signedPreview();
    const alterations: Record<string, unknown> = {
      v: 2,
      request_hash: `sha256-${'A'.repeat(43)}`,
      response_hash: `sha256-${'B'.repeat(43)}`,
      as_of: (receipt.as_of as number) + 1,
      issued_at: (receipt.issued_at as number) + 1,
      sources: ['binance'],
      issuer: 'evil.example',
      kid: 'not-our-kid',
      sig: `ed25519-${'A'.repeat(86)}`,
    };
    const reasons: Record<string, string> = {};
    for (const [field, value] of Object.entries(alterations)) {
      const outcome = await verify({ receipt: { ...receipt, [field]: value } });
      expect(outcome.valid, field).toBe(false);
      reasons[field] = outcome.reason;
    }
    expect(reasons).toEqual({
      v: 'unsupported_version',
      request_hash: 'bad_signature',
      response_hash: 'bad_signature',
      as_of: 'bad_signature',
      issued_at: 'bad_signature',
      sources: 'bad_signature',
      issuer: 'bad_signature',
      kid: 'unknown_kid',
      sig: 'bad_signature',
    });
  });

  it('names malformed receipts and responses that do not match', async () => {
    const body = await signedPreview();
    expect(await verify({ receipt: 'nope' })).toEqual({ valid: false, reason: 'malformed' });
    expect(await verify({ receipt: { ...body._receipt, sig: 'rsa-xyz' } })).toEqual({ valid: false, reason: 'malformed' });
    const { sources, ...missing } = body._receipt;
    expect(await verify({ receipt: missing })).toEqual({ valid: false, reason: 'malformed' });
    expect(await verify({ receipt: body._receipt, response: { ...body, preview: { coin: 'bitcoin', usd: 1 } } })).toEqual({
      valid: false,
      reason: 'response_mismatch',
    });
  });

  it('publishes the key as SPKI and JWK, and an independent library verifies the signature', async () => {
    const key = (await t.app.inject('/.well-known/svc-receipt-pubkey.json')).json();
    expect(key).toMatchObject({
      kid: t.deps.signingKey.kid,
      alg: 'EdDSA',
      crv: 'Ed25519',
      jwk: { kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', kid: key.kid },
    });
    const { _receipt: receipt } = await signedPreview();
    const { sig, ...unsigned } = receipt;
    // jose accepts the published JWK as an EdDSA key …
    await expect(importJWK(key.jwk, 'EdDSA')).resolves.toBeDefined();
    // … and @noble/curves, an implementation independent of node:crypto, verifies the signature offline.
    const signature = Buffer.from(String(sig).slice('ed25519-'.length), 'base64url');
    const message = new TextEncoder().encode(canonicalJson(unsigned));
    expect(ed25519.verify(signature, message, Buffer.from(key.jwk.x, 'base64url'))).toBe(true);
    expect(
      ed25519.verify(signature, new TextEncoder().encode(canonicalJson({ ...unsigned, as_of: 1 })), Buffer.from(key.jwk.x, 'base64url')),
    ).toBe(false);
    // The SPKI form carries the same raw key (its last 32 bytes).
    expect(Buffer.from(key.spki, 'base64url').subarray(-32).toString('base64url')).toBe(key.jwk.x);
  });

  it('keeps the same key and kid across restarts, and accepts a configured PEM key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-key-'));
    expect(loadSigningKey(undefined, dir).kid).toBe(loadSigningKey(undefined, dir).kid);
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString('base64');
    expect(loadSigningKey(pem, dir).kid).toBe(loadSigningKey(der, dir).kid);
    expect(loadSigningKey(pem, dir).kid).not.toBe(loadSigningKey(undefined, dir).kid);
  });
});
