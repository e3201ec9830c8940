import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison of secrets of any length (hashing first equalises the lengths). */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
