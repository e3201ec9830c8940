import canonicalize from 'canonicalize';
import { base64Decode, base64UrlEncode, utf8Encode } from './bytes.js';
import type { RequestDescription } from './meta.js';
import { TlogError } from './tlog/errors.js';
import type { NoteVerifier } from './tlog/note.js';
import { verifyTlogProof, type TlogProof } from './tlog/proof.js';

/**
 * Offline receipt verification with WebCrypto only (Node 20.19+, browsers, edge runtimes). A receipt
 * is `{v, request_hash, response_hash, as_of, issued_at, sources, issuer, kid, sig}`:
 * `sig` = "ed25519-" + base64url(Ed25519(JCS(receipt without sig))),
 * `response_hash` = "sha256-" + base64url(SHA-256(JCS(body without _receipt))),
 * `request_hash` = the same over `{method, path, query, body}` of the request, JCS = RFC 8785.
 * A logged receipt also carries `log: {origin, index}` (signed): its JCS bytes, `sig` included, are the
 * entry at `index` of the transparency log named `origin`.
 */

export interface Receipt {
  v: 1;
  request_hash: string;
  response_hash: string;
  as_of: number;
  issued_at: number;
  sources: string[];
  issuer: string;
  /** Present (and signed) only on answers of a demo server: never live data. */
  source_mode?: 'demo';
  /** Where the receipt is in svc's transparency log (c2sp.org/tlog-tiles), assigned before signing. */
  log?: ReceiptLogPosition;
  kid: string;
  sig: string;
}

export interface ReceiptLogPosition {
  origin: string;
  index: number;
}

/** The service's public key as published at /.well-known/svc-receipt-pubkey.json. */
export interface ReceiptJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  [key: string]: unknown;
}

/** What was checked: always the signature, then the response and the request when they were given. */
export type ReceiptChecks = `signature${'' | '+response'}${'' | '+request'}${'' | '+inclusion'}`;

export type ReceiptVerdict =
  | {
      valid: true;
      kid: string;
      issued_at: number;
      as_of: number;
      source_mode: 'demo' | 'live';
      checked: ReceiptChecks;
      /** With an inclusion check: the position and the size of the signed checkpoint that includes it. */
      log?: ReceiptLogPosition & { tree_size: number };
    }
  | {
      valid: false;
      reason:
        | 'malformed'
        | 'unsupported_version'
        | 'unknown_kid'
        | 'bad_signature'
        | 'response_mismatch'
        | 'request_mismatch'
        | 'no_receipt'
        | 'not_logged'
        | 'not_included';
      /** For `not_included`: what the inclusion check found. */
      message?: string;
    };

const HASH = /^sha256-[A-Za-z0-9_-]{43}$/;
const SIG = /^ed25519-[A-Za-z0-9_-]{86}$/;

function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

async function sha256(text: string): Promise<string> {
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8Encode(text))));
}

/** `sha256-` + base64url(SHA-256(RFC 8785 JSON)). */
export const sha256Tagged = async (value: unknown): Promise<string> => `sha256-${await sha256(canonicalJson(value))}`;

/** The response hash of a parsed body: its canonical JSON without `_receipt`. */
export function responseHash(body: Record<string, unknown>): Promise<string> {
  const { _receipt, ...rest } = body;
  return sha256Tagged(rest);
}

/** The request hash as the service computes it: method upper case, path without query, query as sent, body or null. */
export const requestHash = (request: RequestDescription): Promise<string> =>
  sha256Tagged({ method: request.method.toUpperCase(), path: request.path, query: request.query, body: request.body ?? null });

/** RFC 7638 thumbprint of an Ed25519 JWK: the service uses it as the key id. */
export const jwkThumbprint = (jwk: Pick<ReceiptJwk, 'x'>): Promise<string> =>
  sha256(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x: jwk.x }));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isLogPosition = (log: unknown): log is ReceiptLogPosition =>
  isRecord(log) && typeof log.origin === 'string' && Number.isSafeInteger(log.index) && (log.index as number) >= 0;

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
    (r.source_mode === undefined || r.source_mode === 'demo') &&
    (r.log === undefined || isLogPosition(r.log)) &&
    SIG.test(String(r.sig))
  );
}

async function signatureHolds(unsigned: Record<string, unknown>, sig: string, jwk: ReceiptJwk): Promise<boolean> {
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  const signature = base64Decode(sig.slice('ed25519-'.length));
  return crypto.subtle.verify({ name: 'Ed25519' }, key, signature, utf8Encode(canonicalJson(unsigned)));
}

export interface VerifyOptions {
  /** The request the answer is for: its hash must be the receipt's `request_hash`. */
  request?: RequestDescription;
  /**
   * Also check the receipt is in the log: `proof` is its `.tlog-proof` (from /api/v1/receipt/proof or kept
   * beside the answer), `logKeys` the log's verifier key from /log/key (plus witness keys to check their
   * cosignatures). The proof must name the receipt's `log.origin` and `log.index` and include its bytes.
   */
  inclusion?: { proof: string | TlogProof; logKeys: readonly NoteVerifier[] };
}

type InclusionResult = { ok: true; treeSize: number } | { ok: false; reason: 'not_logged' | 'not_included'; message?: string };

/** Is the receipt the entry at its `log.index` of the checkpoint the proof carries? */
async function checkInclusion(receipt: Receipt, { proof, logKeys }: NonNullable<VerifyOptions['inclusion']>): Promise<InclusionResult> {
  if (!receipt.log) return { ok: false, reason: 'not_logged' };
  try {
    const verified = await verifyTlogProof(proof, utf8Encode(canonicalJson(receipt)), logKeys, { origin: receipt.log.origin });
    if (verified.index === receipt.log.index) return { ok: true, treeSize: verified.checkpoint.size };
    return {
      ok: false,
      reason: 'not_included',
      message: `the proof is for index ${verified.index}, the receipt says ${receipt.log.index}`,
    };
  } catch (error) {
    if (error instanceof TlogError) return { ok: false, reason: 'not_included', message: error.message };
    throw error;
  }
}

/**
 * Verifies `input` offline against the key its `kid` names among `keys` (one JWK, or the `keys[]` of
 * /.well-known/svc-receipt-pubkey.json, which keeps the keys earlier receipts were signed with through a
 * rotation): a whole response body carrying `_receipt` (signature and response hash are checked), or a
 * bare receipt (signature only); with `request`, also `request_hash`, so a genuine receipt of another
 * request fails.
 */
export async function verifyReceipt(
  input: unknown,
  keys: ReceiptJwk | readonly ReceiptJwk[],
  { request, inclusion }: VerifyOptions = {},
): Promise<ReceiptVerdict> {
  if (!isRecord(input)) return { valid: false, reason: 'malformed' };
  const isBody = '_receipt' in input;
  if (!isBody && !('sig' in input)) return { valid: false, reason: 'no_receipt' };
  const receipt = isBody ? input._receipt : input;
  if (!isRecord(receipt) || !isWellFormed(receipt)) return { valid: false, reason: 'malformed' };
  if (receipt.v !== 1) return { valid: false, reason: 'unsupported_version' };
  const jwk = [keys].flat().find((k) => k.kid === receipt.kid);
  if (!jwk || (await jwkThumbprint(jwk)) !== jwk.kid) return { valid: false, reason: 'unknown_kid' };
  const { sig, ...unsigned } = receipt;
  if (!(await signatureHolds(unsigned, sig, jwk))) return { valid: false, reason: 'bad_signature' };
  if (isBody && (await responseHash(input)) !== receipt.response_hash) return { valid: false, reason: 'response_mismatch' };
  if (request && (await requestHash(request)) !== receipt.request_hash) return { valid: false, reason: 'request_mismatch' };
  const included = inclusion && (await checkInclusion(receipt, inclusion));
  if (included && !included.ok)
    return { valid: false, reason: included.reason, ...(included.message ? { message: included.message } : {}) };
  return {
    valid: true,
    kid: receipt.kid,
    issued_at: receipt.issued_at,
    as_of: receipt.as_of,
    source_mode: receipt.source_mode ?? 'live',
    checked: `signature${isBody ? '+response' : ''}${request ? '+request' : ''}${included ? '+inclusion' : ''}`,
    ...(included && receipt.log ? { log: { ...receipt.log, tree_size: included.treeSize } } : {}),
  };
}
