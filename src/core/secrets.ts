import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Constant-time comparison of secrets of any length (hashing first equalises the lengths). */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/** The token of an `Authorization: Bearer <token>` header, if any. */
export const bearerToken = (request: FastifyRequest): string | undefined =>
  /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** A secret for one purpose (cursors, payment memos, …), derived from the signing key so nothing else needs configuring. */
export function derivedSecret(signingKey: KeyObject, purpose: string): Buffer {
  const material = signingKey.export({ format: 'der', type: 'pkcs8' });
  return createHash('sha256').update(`svc-${purpose}-v1`).update(material).digest();
}
