import canonicalizeImpl from 'canonicalize';
import { createHash } from 'node:crypto';

/** RFC 8785 (JCS) canonical JSON. */
export function canonicalJson(value: unknown): string {
  const text = canonicalizeImpl(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

export const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** `sha256-` + base64url(SHA-256(canonical JSON)): the hash form used in receipts. */
export function sha256Tagged(value: unknown): string {
  return `sha256-${base64url(createHash('sha256').update(canonicalJson(value)).digest())}`;
}
