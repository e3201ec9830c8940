import canonicalize from 'canonicalize';
import { createHash, createPublicKey, verify, type JsonWebKey } from 'node:crypto';

/**
 * Offline receipt verification. A receipt is `{v, request_hash, response_hash, as_of, issued_at,
 * sources, issuer, kid, sig}`: `sig` = "ed25519-" + base64url(Ed25519(JCS(receipt without sig))),
 * `response_hash` = "sha256-" + base64url(SHA-256(JCS(body without _receipt))), JCS = RFC 8785.
 */

export interface Receipt {
  v: 1;
  request_hash: string;
  response_hash: string;
  as_of: number;
  issued_at: number;
  sources: string[];
  issuer: string;
  kid: string;
  sig: string;
}

/** The service's public key as published at /.well-known/svc-receipt-pubkey.json. */
export interface ReceiptJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  [key: string]: unknown;
}

export type ReceiptVerdict =
  | { valid: true; kid: string; issued_at: number; as_of: number; checked: 'signature' | 'signature+response' }
  | { valid: false; reason: 'malformed' | 'unsupported_version' | 'unknown_kid' | 'bad_signature' | 'response_mismatch' | 'no_receipt' };

const HASH = /^sha256-[A-Za-z0-9_-]{43}$/;
const SIG = /^ed25519-[A-Za-z0-9_-]{86}$/;

function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** `sha256-` + base64url(SHA-256(RFC 8785 JSON)). */
export const sha256Tagged = (value: unknown): string => `sha256-${createHash('sha256').update(canonicalJson(value)).digest('base64url')}`;

/** The response hash of a parsed body: its canonical JSON without `_receipt`. */
export function responseHash(body: Record<string, unknown>): string {
  const { _receipt, ...rest } = body;
  return sha256Tagged(rest);
}

/** RFC 7638 thumbprint of an Ed25519 JWK: the service uses it as the key id. */
export const jwkThumbprint = (jwk: Pick<ReceiptJwk, 'x'>): string =>
  createHash('sha256')
    .update(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x: jwk.x }))
    .digest('base64url');

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isWellFormed(r: Record<string, unknown>): r is Record<string, unknown> & Receipt {
  return (
    HASH.test(String(r.request_hash)) &&
    HASH.test(String(r.response_hash)) &&
    Number.isInteger(r.as_of) &&
    Number.isInteger(r.issued_at) &&
    Array.isArray(r.sources) &&
    r.sources.every((s) => typeof s === 'string') &&
    typeof r.issuer === 'string' &&
    typeof r.kid === 'string' &&
    SIG.test(String(r.sig))
  );
}

/**
 * Verifies `input` offline against `jwk`: a whole response body carrying `_receipt` (signature and
 * response hash are checked), or a bare receipt (signature only).
 */
export function verifyReceipt(input: unknown, jwk: ReceiptJwk): ReceiptVerdict {
  if (!isRecord(input)) return { valid: false, reason: 'malformed' };
  const isBody = '_receipt' in input;
  if (!isBody && !('sig' in input)) return { valid: false, reason: 'no_receipt' };
  const receipt = isBody ? input._receipt : input;
  if (!isRecord(receipt) || !isWellFormed(receipt)) return { valid: false, reason: 'malformed' };
  if (receipt.v !== 1) return { valid: false, reason: 'unsupported_version' };
  if (receipt.kid !== jwk.kid || jwkThumbprint(jwk) !== jwk.kid) return { valid: false, reason: 'unknown_kid' };
  const { sig, ...unsigned } = receipt;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } as JsonWebKey, format: 'jwk' });
  const signature = Buffer.from(sig.slice('ed25519-'.length), 'base64url');
  if (!verify(null, Buffer.from(canonicalJson(unsigned)), key, signature)) return { valid: false, reason: 'bad_signature' };
  if (isBody && responseHash(input) !== receipt.response_hash) return { valid: false, reason: 'response_mismatch' };
  return {
    valid: true,
    kid: receipt.kid,
    issued_at: receipt.issued_at,
    as_of: receipt.as_of,
    checked: isBody ? 'signature+response' : 'signature',
  };
}
