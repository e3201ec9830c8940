import { sign, verify } from 'node:crypto';
import { canonicalJson, sha256Tagged } from './canonical-json.js';
import type { SigningKey, VerifyingKey } from './signing-keys.js';

export interface Receipt {
  v: 1;
  request_hash: string;
  response_hash: string;
  as_of: number;
  issued_at: number;
  sources: string[];
  issuer: string;
  /** Present (and signed) only on answers from the demo simulator: such a receipt never vouches for live data. */
  source_mode?: 'demo';
  /** Where the receipt is in svc's transparency log (docs/transparency-log.md): assigned before signing, so signed. */
  log?: ReceiptLogPosition;
  kid: string;
  sig: string;
}

export interface ReceiptLogPosition {
  /** The log's origin (the first line of its checkpoints). */
  origin: string;
  /** The entry's zero-based index: the log's entry there is this receipt's canonical JSON. */
  index: number;
}

export interface RequestDescription {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
}

/** Query keys sorted, so `?a=1&b=2` and `?b=2&a=1` hash alike (canonical JSON sorts them anyway). */
export const requestHash = (req: RequestDescription): string =>
  sha256Tagged({ method: req.method.toUpperCase(), path: req.path, query: req.query, body: req.body ?? null });

/** The hash of a response body as the client parses it, without its `_receipt`. */
export function responseHash(body: Record<string, unknown>): string {
  const { _receipt, ...rest } = body;
  return sha256Tagged(rest);
}

/** The signing input: the canonical JSON of the receipt without `sig`. */
export const signingInput = (unsigned: Omit<Receipt, 'sig'>): Buffer => Buffer.from(canonicalJson(unsigned));

export function signReceipt(key: SigningKey, unsigned: Omit<Receipt, 'sig' | 'kid' | 'v'>): Receipt {
  const { log, ...fields } = unsigned;
  const body: Omit<Receipt, 'sig'> = { v: 1, ...fields, kid: key.kid, ...(log ? { log } : {}) };
  const sig = sign(null, signingInput(body), key.privateKey).toString('base64url');
  // `log` last, as ReceiptSchema lists it: a receipt stored as JSON reads back in the order an answer serialized it.
  return { v: 1, ...fields, kid: key.kid, sig: `ed25519-${sig}`, ...(log ? { log } : {}) };
}

export type VerifyOutcome =
  | { valid: true; kid: string; issued_at: number; as_of: number; source_mode: 'demo' | 'live' }
  | { valid: false; reason: 'malformed' | 'unsupported_version' | 'unknown_kid' | 'bad_signature' | 'response_mismatch' };

const HASH = /^sha256-[A-Za-z0-9_-]{43}$/;
const SIG = /^ed25519-[A-Za-z0-9_-]{86}$/;

function isLogPosition(log: unknown): log is ReceiptLogPosition {
  if (typeof log !== 'object' || log === null || Array.isArray(log)) return false;
  const { origin, index, ...rest } = log as Record<string, unknown>;
  return (
    typeof origin === 'string' && origin !== '' && Number.isSafeInteger(index) && (index as number) >= 0 && Object.keys(rest).length === 0
  );
}

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

/**
 * Checks a receipt against the key its `kid` names among `keys` (the signing key and the earlier ones kept
 * through a rotation) and, when given, against the response it came with.
 */
export function verifyReceipt(
  keys: VerifyingKey | readonly VerifyingKey[],
  receipt: unknown,
  response?: Record<string, unknown>,
): VerifyOutcome {
  if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) return { valid: false, reason: 'malformed' };
  const r = receipt as Record<string, unknown>;
  if (!isWellFormed(r)) return { valid: false, reason: 'malformed' };
  if (r.v !== 1) return { valid: false, reason: 'unsupported_version' };
  const key = [keys].flat().find((k) => k.kid === r.kid);
  if (!key) return { valid: false, reason: 'unknown_kid' };
  const { sig, ...unsigned } = r;
  const signature = Buffer.from(sig.slice('ed25519-'.length), 'base64url');
  if (!verify(null, signingInput(unsigned), key.publicKey, signature)) return { valid: false, reason: 'bad_signature' };
  if (response && responseHash(response) !== r.response_hash) return { valid: false, reason: 'response_mismatch' };
  return { valid: true, kid: r.kid, issued_at: r.issued_at, as_of: r.as_of, source_mode: r.source_mode ?? 'live' };
}
