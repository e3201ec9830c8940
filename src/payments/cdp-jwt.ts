import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import type { CryptoKey } from 'jose';
import { importOnce } from '../core/import-once.js';

/** jose on first use: only a deployment settling through CDP signs a JWT (~8 MB of modules otherwise held for nothing). */
const loadJose = importOnce(() => import('jose'));

/** A Coinbase Developer Platform API key: its id and secret (an EC PKCS#8 PEM, or a base64 Ed25519 seed + public key). */
export interface CdpKey {
  keyId: string;
  keySecret: string;
}

const JWT_TTL_S = 120;

/** The signing key and its JWS algorithm, from either secret format CDP issues. */
async function signingKey(secret: string): Promise<{ key: CryptoKey | KeyObject; alg: 'ES256' | 'EdDSA' }> {
  if (secret.includes('-----BEGIN')) {
    // Node reads both PEM forms CDP hands out (SEC1 "EC PRIVATE KEY" and PKCS#8); env files often carry the newlines as "\n".
    return { key: createPrivateKey(secret.replace(/\\n/g, '\n')), alg: 'ES256' };
  }
  const raw = Buffer.from(secret, 'base64');
  if (raw.length !== 64) throw new Error('CDP_API_KEY_SECRET must be an EC private key (PEM) or a base64 Ed25519 key of 64 bytes');
  const jwk = { kty: 'OKP', crv: 'Ed25519', d: raw.subarray(0, 32).toString('base64url'), x: raw.subarray(32).toString('base64url') };
  const { importJWK } = await loadJose();
  return { key: (await importJWK(jwk, 'EdDSA')) as CryptoKey, alg: 'EdDSA' };
}

/**
 * The bearer JWT CDP expects on each API request, as CDP documents it (and @coinbase/cdp-sdk builds
 * it): `sub` = key id, `iss` = "cdp", `uris` = ["<METHOD> <host><path>"], valid 120 s, with `kid`
 * and a random `nonce` in the header.
 */
export async function cdpJwt(cdp: CdpKey, method: string, url: URL, nowS: number): Promise<string> {
  const { key, alg } = await signingKey(cdp.keySecret);
  const { SignJWT } = await loadJose();
  return new SignJWT({ sub: cdp.keyId, iss: 'cdp', uris: [`${method} ${url.host}${url.pathname}`] })
    .setProtectedHeader({ alg, kid: cdp.keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
    .setIssuedAt(nowS)
    .setNotBefore(nowS)
    .setExpirationTime(nowS + JWT_TTL_S)
    .sign(key);
}
