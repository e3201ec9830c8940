import { createHash } from 'node:crypto';

/**
 * A strong ETag of the bytes: 27 base64url characters of their SHA-256 (160 bits, ample against collisions). One
 * function for the pages and assets (plugins/static-assets.ts) and the kept hot answers (data/hot-answers.ts).
 */
export const etagOf = (bytes: string | Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
