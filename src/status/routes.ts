import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { asset, assetSchema, pageCsp, read, sendAsset } from '../plugins/static-assets.js';
import { StatusReport } from './schemas.js';
import { buildFields, logMigrations, registerBuildInfoMetric } from './build.js';

const tags = ['ops'];

/** `/api/v1/status` (public, no secrets) and the `/status` page that reads it. */
export const statusRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const status = deps.status;
    logMigrations(deps.store, app.log);
    registerBuildInfoMetric(deps.metrics.registry);
    // Every instance beats from ready on: the instance count and the doctor's same-key check read the heartbeats.
    app.addHook('onReady', async () => {
      status.start();
      await deps.cluster.start();
    });
    const pages = {
      page: asset(read('status.html'), 'text/html; charset=utf-8', 'no-cache'),
      script: asset(`(() => {\n'use strict';\n${read('status.js')}})();\n`, 'text/javascript; charset=utf-8', 'public, max-age=3600'),
      styles: asset(read('watch.css') + read('status.css'), 'text/css; charset=utf-8', 'public, max-age=3600'),
    };
    const csp = pageCsp(deps.config.publicUrl);

    app.get(
      '/api/v1/status',
      {
        schema: {
          tags,
          summary: 'Which upstreams work here: every data type and upstream host with its recent health',
          description:
            'Public and free of secrets: keys appear only as configured or not, errors as a reason and an HTTP status. Each data type has a ' +
            'state (working, degraded, failing, needs_key, not_called) from its last fresh fetch and the configuration; each upstream host ' +
            'its calls, success rate and latency over the window, last success and error, and circuit breaker. With Redis the figures of ' +
            'every instance are merged (shared every 5 s); `instances` counts those whose heartbeat in the database is fresh. `version`, `commit` and ' +
            '`migrations` name the build and the database schema this instance runs.',
          response: { 200: StatusReport },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { ...(await status.report()), ...buildFields(deps.store) };
      },
    );

    app.get(
      '/status',
      {
        schema: {
          tags,
          operationId: 'getStatusPage',
          summary: 'Upstream status page',
          description: 'A static page over /api/v1/status, refreshed every 30 s. Strict CSP: no inline script or style.',
          produces: ['text/html'],
          response: { 200: Type.String({ description: 'the status page' }) },
        },
      },
      async (request, reply) => {
        reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
        return sendAsset(request, reply, pages.page);
      },
    );
    app.get('/assets/status.js', { schema: assetSchema(tags, 'Status page script', pages.script) }, async (request, reply) =>
      sendAsset(request, reply, pages.script),
    );
    app.get('/assets/status.css', { schema: assetSchema(tags, 'Status page styles', pages.styles) }, async (request, reply) =>
      sendAsset(request, reply, pages.styles),
    );
  };
