import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { sameSecret } from '../core/secrets.js';
import { StringEnum, errorResponses, SECURITY } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { NICHES, REFRESH_EVERY_MS, ViralService } from './service.js';

const Video = Type.Object({
  video_id: Type.String(),
  title: Type.String(),
  channel: Type.String(),
  published_at: Type.Integer(),
  views: Type.Integer(),
  url: Type.String(),
  thumbnail_url: Type.Union([Type.String(), Type.Null()]),
});

export const viralRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const viral = new ViralService(deps.upstream, deps.repos.viral, deps.clock);
    ctx.jobs.push({ name: 'viral-refresh', everyMs: REFRESH_EVERY_MS, run: async () => void (await viral.refreshAll()) });

    app.get(
      '/api/v1/viral/today',
      {
        config: { signed: true },
        schema: {
          tags: ['data'],
          summary: 'Top 5 viral videos of the day per niche',
          description:
            "Refreshed every 30 minutes and kept 24 hours. Source: YouTube Data API search (UPSTREAM_YOUTUBE_KEY) or, without a key, the niche's curated channel feeds.",
          querystring: Type.Object({ niche: Type.Optional(StringEnum(NICHES, { default: 'ai' })) }),
          response: {
            200: Type.Object({
              niche: Type.String(),
              date: Type.String(),
              source: Type.String(),
              as_of: Type.Integer(),
              top5: Type.Array(Video),
            }),
            ...errorResponses(400, 503),
          },
        },
      },
      async (request) => viral.today(request.query.niche ?? 'ai'),
    );

    app.get(
      '/api/v1/viral/refresh',
      {
        schema: {
          tags: ['data'],
          summary: 'Refresh every niche now (cron secret)',
          description:
            'Requires `key` equal to SVC_CRON_KEY (compared in constant time); 403 when missing or wrong, and always when SVC_CRON_KEY is unset.',
          security: SECURITY.cron,
          querystring: Type.Object({ key: Type.Optional(Type.String({ maxLength: 256 })) }),
          response: {
            200: Type.Object({
              refreshed_at: Type.Integer(),
              results: Type.Array(
                Type.Object({
                  niche: Type.String(),
                  ok: Type.Boolean(),
                  count: Type.Optional(Type.Integer()),
                  source: Type.Optional(Type.String()),
                  error: Type.Optional(Type.String()),
                }),
              ),
            }),
            ...errorResponses(403),
          },
        },
      },
      async (request) => {
        const expected = deps.config.cronKey;
        if (!expected || !sameSecret(request.query.key ?? '', expected))
          throw new ApiError('forbidden', 'forbidden: missing or wrong key', { field: 'key' });
        return { refreshed_at: Math.floor(deps.clock.now() / 1000), results: await viral.refreshAll() };
      },
    );
  };
