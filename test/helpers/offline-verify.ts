import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The published receipt key as a KeyObject, from the body of /.well-known/svc-receipt-pubkey.json. */
export const publicKeyOf = (wellKnown: { jwk: { kty: string; crv: string; x: string } }): KeyObject =>
  createPublicKey({ key: { kty: wellKnown.jwk.kty, crv: wellKnown.jwk.crv, x: wellKnown.jwk.x }, format: 'jwk' });

const canonical = (value: unknown): string => (canonicalize as unknown as (v: unknown) => string)(value);
const ed25519 = (key: KeyObject, message: string, sig: string): boolean =>
  sig.startsWith('ed25519-') && verify(null, Buffer.from(message), key, Buffer.from(sig.slice(8), 'base64url'));

/**
 * Verifies a signed answer without asking svc, as a third party would: the receipt's signature over
 * its canonical JSON without `sig`, and its response_hash over the canonical body without `_receipt`.
 * Written here from the documented rules (RFC 8785 via the canonicalize package), not with svc's code.
 */
export function verifiesOffline(key: KeyObject, body: Record<string, unknown>): boolean {
  const { _receipt: receipt, ...rest } = body as { _receipt: Record<string, unknown> };
  const { sig, ...unsigned } = receipt;
  const hash = `sha256-${createHash('sha256').update(canonical(rest)).digest('base64url')}`;
  return hash === receipt.response_hash && ed25519(key, canonical(unsigned), String(sig));
}

/** One line of a calib-pro export: its sig over the canonical line without sig. */
export function lineVerifies(key: KeyObject, line: Record<string, unknown>): boolean {
  const { sig, ...unsigned } = line;
  return ed25519(key, canonical(unsigned), String(sig));
}
