import Type from 'typebox';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { assetSchema, pageCsp, sendAsset } from '../plugins/static-assets.js';
import { loadPages } from './pages.js';
import type { SessionParts } from './routes-shared.js';

const Binary = (description: string) => Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description });
const NotModified = Type.Null({ description: 'not modified (If-None-Match)' });

/** A posted screenshot: immutable bytes addressed by their hash, served apart from the events that name them. */
export function addScreenshotRoute(app: RouteApp, { sessions, tags }: SessionParts): void {
  app.get(
    '/api/agent-session/screenshot/:sha256',
    {
      schema: {
        tags,
        summary: 'A posted screenshot, by its SHA-256',
        description: 'Immutable: served with a year-long cache lifetime and the hash as ETag.',
        params: Type.Object({ sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
        response: { 200: Binary('image/png, image/jpeg or image/webp'), 304: NotModified, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const etag = `"${request.params.sha256}"`;
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag).header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      const shot = await sessions.screenshot(request.params.sha256);
      if (!shot) throw new ApiError('not_found', 'no such screenshot');
      reply.header('content-security-policy', "default-src 'none'").header('cross-origin-resource-policy', 'cross-origin');
      return reply.type(shot.mime).send(Buffer.from(shot.data_b64, 'base64'));
    },
  );
}

/** What a browser loads to watch a session: the watch page, its script and styles, and the embeddable widget. */
export function addPageRoutes(app: RouteApp, { sessions, settings, tags }: SessionParts): void {
  const pages = loadPages();
  const csp = pageCsp(settings.publicUrl);
  app.get(
    '/watch/:session_id',
    {
      schema: {
        tags,
        summary: 'Watch page of a session (HTML)',
        description:
          'A static page that follows the stream; unknown sessions get a 404 page. Strict CSP: no inline script or style, no third-party origins.',
        params: Type.Object({ session_id: Type.String({ maxLength: 100 }) }),
        produces: ['text/html'],
        response: {
          200: Type.String({ description: 'the watch page' }),
          404: Type.String({ description: 'a page saying the session is unknown' }),
        },
      },
    },
    async (request, reply) => {
      reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
      const info = /^as_[A-Za-z0-9_-]{22,64}$/.test(request.params.session_id) ? await sessions.info(request.params.session_id) : undefined;
      if (!info) return sendAsset(request, reply, pages.notFoundPage, 404);
      if (info.visibility === 'unlisted') reply.header('x-robots-tag', 'noindex, nofollow');
      return sendAsset(request, reply, pages.watchPage);
    },
  );

  const staticRoute = (path: string, summary: string, file: (typeof pages)[keyof typeof pages], crossOrigin = false) =>
    app.get(path, { schema: assetSchema(tags, summary, file) }, async (request, reply) => {
      if (crossOrigin) reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
      return sendAsset(request, reply, file);
    });
  staticRoute('/assets/watch.js', 'Watch page script', pages.watchScript);
  staticRoute('/assets/watch.css', 'Watch page styles', pages.watchStyles);
  staticRoute(
    '/widget/watch.js',
    'Embeddable session widget: <script src=".../widget/watch.js" data-session="as_…">',
    pages.widgetScript,
    true,
  );
}
