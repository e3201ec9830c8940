import canonicalizeImpl from 'canonicalize';
import { hash } from 'node:crypto';

/** Thrown inside JSON.stringify when an object has array-index keys, which no copy can put in JCS order. */
class IndexKeys extends Error {}

/** An array index (`0` … `4294967294`): such keys come first, in numeric order, in every object's own key order. */
const isArrayIndex = (key: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;

/**
 * A `\uD800`–`\uDFFF` escape outside any escaped backslash: JSON.stringify writes one only for a lone surrogate
 * (well-formed pairs stay as they are), which RFC 8785 does not allow.
 */
const LONE_SURROGATE = /(?:^|[^\\])(?:\\\\)*\\ud[89a-f]/;

/**
 * JSON.stringify's replacer: every object's keys in UTF-16 code unit order (a sorted copy, unless they already are),
 * and the values RFC 8785 rejects rejected (JSON.stringify would have written `null` for a non-finite number).
 */
function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${value} is not allowed in canonical JSON`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && isArrayIndex(keys[0]!)) throw new IndexKeys();
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return value;
  // No prototype: a `__proto__` key is then an ordinary property, as it is in the value.
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of keys.sort()) copy[key] = (value as Record<string, unknown>)[key];
  return copy;
}

/**
 * RFC 8785 (JCS) canonical JSON. JCS writes numbers and strings as ECMAScript's JSON.stringify does, so the work is
 * JSON.stringify's, with keys sorted on the way: a few times faster than serializing in JavaScript, which matters on
 * every answer (rows hashes, receipts). A value holding an object with array-index keys (which no object holds in
 * sorted order) is written by the `canonicalize` package instead.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, sortedKeys);
  } catch (error) {
    if (!(error instanceof IndexKeys)) throw error;
    text = canonicalizeImpl(value);
  }
  if (text === undefined) throw new TypeError('value has no JSON representation');
  if (LONE_SURROGATE.test(text)) throw new Error('a lone surrogate is not allowed in canonical JSON');
  return text;
}

export const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** `sha256-` + base64url(SHA-256(canonical JSON)): the hash form used in receipts. */
export function sha256Tagged(value: unknown): string {
  return `sha256-${hash('sha256', canonicalJson(value), 'base64url')}`;
}
