import Type from 'typebox';
import type { RouteApp } from '../core/route-app.js';
import { asset, assetSchema, pageCsp, read, sendAsset } from '../plugins/static-assets.js';
import { tags, type OlympicsParts } from './routes-shared.js';

/** The scoreboard: a static page, its script and styles, over the API routes. */
export function addScoreboardRoutes(app: RouteApp, { ctx }: OlympicsParts): void {
  const pages = {
    page: asset(read('olympics.html'), 'text/html; charset=utf-8', 'no-cache'),
    script: asset(`(() => {\n'use strict';\n${read('olympics.js')}})();\n`, 'text/javascript; charset=utf-8', 'public, max-age=3600'),
    styles: asset(read('watch.css') + read('olympics.css'), 'text/css; charset=utf-8', 'public, max-age=3600'),
  };
  const csp = pageCsp(ctx.deps.config.publicUrl);
  app.get(
    '/olympics',
    {
      schema: {
        tags,
        summary: 'Olympics scoreboard (HTML)',
        description:
          'A static page over the medals and events routes with live updates from the ticker; says why when no models are configured. Strict CSP: no inline script or style.',
        produces: ['text/html'],
        response: { 200: Type.String({ description: 'the scoreboard page' }) },
      },
    },
    async (request, reply) => {
      reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
      return sendAsset(request, reply, pages.page);
    },
  );
  app.get('/assets/olympics.js', { schema: assetSchema(tags, 'Scoreboard script', pages.script) }, async (request, reply) =>
    sendAsset(request, reply, pages.script),
  );
  app.get('/assets/olympics.css', { schema: assetSchema(tags, 'Scoreboard styles', pages.styles) }, async (request, reply) =>
    sendAsset(request, reply, pages.styles),
  );
}
