import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { MAX_AGO_MINUTES, SNAPSHOT_BASKET, SNAPSHOT_EVERY_MS, SnapshotService } from './service.js';

export const snapshotRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const snapshots = new SnapshotService(ctx.deps.sources, ctx.deps.repos.snapshots, ctx.deps.clock);
    ctx.jobs.push({ name: 'snapshot', everyMs: SNAPSHOT_EVERY_MS, run: () => snapshots.record() });

    app.get(
      '/api/v1/snapshot',
      {
        config: { signed: true },
        schema: {
          tags: ['data'],
          summary: 'Market snapshot now or up to 60 minutes ago',
          description:
            `A snapshot is recorded every minute: ${SNAPSHOT_BASKET.map((b) => `${b.key} (${b.type} ${b.q || '—'})`).join(', ')}. ` +
            '`ago` picks the snapshot at or before now − ago minutes; 404 `no_history` when none was recorded then.',
          querystring: Type.Object({ ago: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AGO_MINUTES, default: 0 })) }),
          response: {
            200: Type.Object({
              data: Type.Object({
                taken_at: Type.Integer({ description: 'Unix ms' }),
                as_of: Type.Integer({ description: 'Unix s' }),
                ago_minutes: Type.Integer(),
                items: Type.Array(
                  Type.Object(
                    {},
                    {
                      additionalProperties: true,
                      description: '{key, type, q, ok, source, as_of, rows} or {key, type, q, ok:false, error}',
                    },
                  ),
                ),
              }),
            }),
            ...errorResponses(400, 404),
          },
        },
      },
      async (request, reply) => {
        const data = await snapshots.at(request.query.ago ?? 0);
        reply.provenance = { asOf: data.as_of, sources: data.items.flatMap((i) => (i.source ? [i.source] : [])) };
        return { data };
      },
    );
  };
