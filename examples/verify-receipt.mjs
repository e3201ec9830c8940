#!/usr/bin/env node
/**
 * Verifies an svc answer offline, with nothing but Node: the signature, the response hash AND the request hash,
 * so the receipt is proven to belong to this very answer to this very request.
 *
 *   node examples/verify-receipt.mjs <answer.json> <pubkey.json> '<METHOD> <path?query>' [<request-body.json>]
 *
 * `pubkey.json` is what /.well-known/svc-receipt-pubkey.json served. Exit 0 when all three checks pass, 1 otherwise.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import console from 'node:console';
import process from 'node:process';
import { URL } from 'node:url';

/** RFC 8785 (JCS): keys sorted by UTF-16 code units, numbers and strings as ECMAScript serializes them. */
const canonical = (value) => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
};
const sha256Tagged = (value) => `sha256-${createHash('sha256').update(canonical(value)).digest('base64url')}`;
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const [answerFile, keyFile, request, bodyFile] = process.argv.slice(2);
if (!answerFile || !keyFile || !request) {
  console.error("usage: verify-receipt.mjs <answer.json> <pubkey.json> '<METHOD> <path?query>' [<request-body.json>]");
  process.exit(2);
}

const { _receipt: receipt, ...body } = readJson(answerFile);
const published = readJson(keyFile);
const [method, target] = request.split(' ');
const url = new URL(target, 'http://svc.invalid');
const requestDescription = {
  method: method.toUpperCase(),
  path: url.pathname,
  query: Object.fromEntries(url.searchParams),
  body: bodyFile ? readJson(bodyFile) : null,
};

const { sig, ...unsigned } = receipt;
const key = createPublicKey({ key: published.jwk, format: 'jwk' });
const checks = {
  kid: receipt.kid === published.kid,
  signature: verify(null, Buffer.from(canonical(unsigned)), key, Buffer.from(sig.replace(/^ed25519-/, ''), 'base64url')),
  response_hash: receipt.response_hash === sha256Tagged(body),
  request_hash: receipt.request_hash === sha256Tagged(requestDescription),
};
const valid = Object.values(checks).every(Boolean);
console.log(JSON.stringify({ valid, checks, as_of: receipt.as_of, source_mode: receipt.source_mode ?? 'live' }));
process.exit(valid ? 0 : 1);
