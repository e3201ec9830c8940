import { createPrivateKey, createPublicKey, generateKeyPairSync, createHash, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** RFC 7638 JWK thumbprint (SHA-256, base64url). */
  kid: string;
  /** The public key as a JWK with kid, alg and use. */
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
  /** DER SubjectPublicKeyInfo, base64url. */
  spki: string;
}

const KEY_FILE = 'signing-key.pem';

function parsePrivateKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('SVC_SIGNING_KEY: must be an Ed25519 private key');
  return key;
}

/** RFC 7638: SHA-256 over the JSON of the required members in lexicographic order. */
export const jwkThumbprint = (x: string): string =>
  createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');

export function describeKey(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const kid = jwkThumbprint(x);
  return {
    privateKey,
    publicKey,
    kid,
    jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    spki: (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).toString('base64url'),
  };
}

/**
 * The key from SVC_SIGNING_KEY, else the one kept in the data directory, else a new one written
 * there (mode 0600) so that a restart keeps the same key and kid.
 */
export function loadSigningKey(configured: string | undefined, dataDir: string): SigningKey {
  if (configured) return describeKey(parsePrivateKey(configured));
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return describeKey(parsePrivateKey(readFileSync(file, 'utf8')));
  const { privateKey } = generateKeyPairSync('ed25519');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  return describeKey(privateKey);
}
