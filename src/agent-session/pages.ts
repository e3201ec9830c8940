import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';

/** A file served from memory with a strong ETag. */
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
  return { body, type, cacheControl, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** One function scope around the shared timeline and a page's own script: no globals leak. */
const bundle = (constants: Record<string, unknown>, ...files: string[]) =>
  `(() => {\n'use strict';\n${Object.entries(constants)
    .map(([name, value]) => `const ${name} = ${JSON.stringify(value)};\n`)
    .join('')}${files.map(read).join('\n')}})();\n`;

/** Revalidated on every use (no-cache) for pages, an hour for assets; the ETag makes revalidation cheap. */
const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=3600';

/**
 * The watch page, its 404 page, their script and stylesheet, and the widget: read from `public/`
 * once at start-up. The scripts are the shared timeline plus each one's own file, each wrapped in
 * one function (no build step, nothing to install).
 */
export function loadPages() {
  return {
    watchPage: asset(read('watch.html'), 'text/html; charset=utf-8', PAGE_CACHE),
    notFoundPage: asset(read('404.html'), 'text/html; charset=utf-8', PAGE_CACHE),
    watchScript: asset(bundle({}, 'timeline.js', 'watch-page.js'), 'text/javascript; charset=utf-8', ASSET_CACHE),
    watchStyles: asset(read('timeline.css') + read('watch.css'), 'text/css; charset=utf-8', ASSET_CACHE),
    widgetScript: asset(
      bundle({ WIDGET_CSS: read('timeline.css') + read('widget.css') }, 'timeline.js', 'widget.js'),
      'text/javascript; charset=utf-8',
      'public, max-age=300',
    ),
  };
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
