import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';

export const healthRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['ops'],
          summary: 'Liveness and store reachability',
          response: {
            200: Type.Object({ ok: Type.Boolean(), store: Type.String(), engine: Type.String() }),
            503: Type.Object({ ok: Type.Boolean(), store: Type.String(), engine: Type.String() }),
          },
        },
      },
      async (_request, reply) => {
        const reachable = await deps.store.ping();
        reply.code(reachable ? 200 : 503);
        return { ok: reachable, store: reachable ? 'reachable' : 'unreachable', engine: deps.store.engine };
      },
    );
  };
