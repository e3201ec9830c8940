import { randomBytes } from 'node:crypto';

/** An opaque, URL-safe random id with a prefix, e.g. `svc-claim:…`, `as_…`. */
export const randomId = (prefix: string, bytes = 16): string => `${prefix}${randomBytes(bytes).toString('base64url')}`;
