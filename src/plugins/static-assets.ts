import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { etagOf } from '../core/etag.js';

/**
 * A page or asset served from memory with a strong ETag: read from `public/` once, answered 304 when the client's copy
 * is current. Shared by the watch page and widget, the olympics and the status page.
 */
export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

const PUBLIC_DIR = new URL('../../public/', import.meta.url);
export const read = (name: string) => readFileSync(new URL(name, PUBLIC_DIR), 'utf8');

export function asset(text: string, type: string, cacheControl: string): Asset {
  const body = Buffer.from(text);
  return { body, type, cacheControl, etag: etagOf(body) };
}

/** Sends an asset, or 304 when the client's copy is current. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, file: Asset, status = 200): FastifyReply {
  reply.header('etag', file.etag).header('cache-control', file.cacheControl).header('x-content-type-options', 'nosniff');
  if (status === 200 && request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  return reply.code(status).type(file.type).send(file.body);
}

/** The route schema of a static asset: documented with the media type it is sent as (not the default JSON). */
export function assetSchema(tags: string[], summary: string, file: Asset) {
  const mediaType = file.type.split(';')[0]!;
  return { tags, summary, produces: [mediaType], response: { 200: Type.String({ description: `the file (${mediaType})` }) } };
}

/** No inline script or style, nothing from other origins but the service's own public address. */
export function pageCsp(publicUrl: string): string {
  const self = `'self' ${new URL(publicUrl).origin}`;
  return [
    `default-src 'none'`,
    `script-src 'self'`,
    `style-src 'self'`,
    `img-src ${self}`,
    `connect-src ${self}`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}
