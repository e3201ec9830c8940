import { createPrivateKey, createPublicKey, generateKeyPairSync, createHash, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A key receipts are checked against: the signing key, or an earlier one kept through a rotation. */
export interface VerifyingKey {
  publicKey: KeyObject;
  /** RFC 7638 JWK thumbprint (SHA-256, base64url). */
  kid: string;
  /** The public key as a JWK with kid, alg and use. */
  jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
  /** DER SubjectPublicKeyInfo, base64url. */
  spki: string;
}

export interface SigningKey extends VerifyingKey {
  privateKey: KeyObject;
}

export const KEY_FILE = 'signing-key.pem';

/** The command an operator runs for a key in the one-line form SVC_SIGNING_KEY takes (base64 PKCS#8 DER). */
export const GENERATE_KEY_COMMAND = 'openssl genpkey -algorithm ed25519 -outform DER | openssl base64 -A';

/** A PEM, or base64 (or base64url) DER. */
const parseAs = <T>(text: string, fromPem: (pem: string) => T, fromDer: (der: Buffer) => T): T => {
  const trimmed = text.trim();
  return trimmed.startsWith('-----BEGIN') ? fromPem(trimmed) : fromDer(Buffer.from(trimmed, 'base64'));
};

function requireEd25519(key: KeyObject, variable: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${variable}: must be an Ed25519 key`);
  return key;
}

function parsePrivateKey(text: string): KeyObject {
  const key = parseAs(text, createPrivateKey, (key) => createPrivateKey({ key, format: 'der', type: 'pkcs8' }));
  return requireEd25519(key, 'SVC_SIGNING_KEY');
}

/** A public key (SPKI, as `/.well-known/svc-receipt-pubkey.json` publishes it) or a private key, whose public half is taken. */
function parseAnyKey(text: string): KeyObject {
  let key: KeyObject;
  try {
    key = parseAs(text, createPublicKey, (der) => createPublicKey({ key: der, format: 'der', type: 'spki' }));
  } catch {
    key = createPublicKey(parsePrivateKey(text));
  }
  return requireEd25519(key, 'SVC_SIGNING_KEYS_PREVIOUS');
}

/** RFC 7638: SHA-256 over the JSON of the required members in lexicographic order. */
export const jwkThumbprint = (x: string): string =>
  createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');

function describePublicKey(publicKey: KeyObject): VerifyingKey {
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  const kid = jwkThumbprint(x);
  return {
    publicKey,
    kid,
    jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    spki: (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).toString('base64url'),
  };
}

export const describeKey = (privateKey: KeyObject): SigningKey => ({ privateKey, ...describePublicKey(createPublicKey(privateKey)) });

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

/** SVC_SIGNING_KEYS_PREVIOUS's items: comma-separated (neither PEM nor base64 has a comma). */
export const listedKeys = (configured: string | undefined): string[] => (configured ?? '').split(',').filter((item) => item.trim() !== '');

/** One earlier key: public (SPKI) or private (PKCS#8), PEM or base64 DER. */
export const parseVerifyingKey = (text: string): VerifyingKey => describePublicKey(parseAnyKey(text));

/**
 * SVC_SIGNING_KEYS_PREVIOUS: the earlier keys whose receipts keep verifying; nothing is signed with them. Duplicates and
 * the signing key itself are dropped.
 */
export function loadPreviousKeys(configured: string | undefined, signing: VerifyingKey): VerifyingKey[] {
  const keys = listedKeys(configured).map(parseVerifyingKey);
  return keys.filter((key, i) => key.kid !== signing.kid && keys.findIndex((k) => k.kid === key.kid) === i);
}
