import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { UpstreamError } from '../upstream/errors.js';
import { cryptoMovers, stockMovers, type Direction, type Mover } from './providers.js';

const TTL_MS = 60_000;
const DEADLINE_MS = 5000;

export const gainersRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const load = async (type: 'crypto' | 'stock', dir: Direction): Promise<{ movers: Mover[]; source: string; fetchedAt: number }> => {
      const key = `gainers:${type}:${dir}`;
      const cached = await deps.cache.get<{ movers: Mover[]; source: string; fetchedAt: number }>(key);
      if (cached) return cached;
      const source = type === 'crypto' ? 'coingecko' : 'yahoo';
      try {
        const http = deps.upstream.host(source);
        const deadline = Date.now() + DEADLINE_MS;
        const movers = type === 'crypto' ? await cryptoMovers(http, dir, deadline) : await stockMovers(http, dir, deadline);
        const value = { movers, source, fetchedAt: deps.clock.now() };
        await deps.cache.set(key, value, TTL_MS);
        return value;
      } catch (e) {
        if (e instanceof UpstreamError)
          throw new ApiError('upstream_unavailable', `movers unavailable: ${e.message}`, { reason: e.reason, source });
        throw e;
      }
    };

    app.get(
      '/api/v1/gainers',
      {
        config: { signed: true },
        schema: {
          tags: ['data'],
          summary: 'Top gainers or losers over 24 h',
          description:
            'crypto: the top 250 coins by market cap (CoinGecko markets); stock: Yahoo day_gainers / day_losers screeners. `dir=up` lists only movers with change_24h_pct > 0, biggest rise first; `dir=down` only those < 0, biggest fall first (fewer than `limit` when few moved that way). Cached 60 s.',
          querystring: Type.Object({
            type: Type.Optional(StringEnum(['stock', 'crypto'] as const, { default: 'crypto' })),
            dir: Type.Optional(StringEnum(['up', 'down'] as const, { default: 'up' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
          }),
          response: {
            200: Type.Object({
              type: Type.String(),
              dir: Type.String(),
              source: Type.String(),
              as_of: Type.Integer(),
              top: Type.Array(
                Type.Object({
                  ticker: Type.String(),
                  name: Type.String(),
                  price: Type.Number(),
                  change_24h_pct: Type.Number(),
                  volume_24h: Type.Union([Type.Number(), Type.Null()]),
                }),
              ),
            }),
            ...errorResponses(400, 503),
          },
        },
      },
      async (request) => {
        const { type = 'crypto', dir = 'up', limit = 5 } = request.query;
        const { movers, source, fetchedAt } = await load(type, dir);
        return { type, dir, source, as_of: Math.floor(fetchedAt / 1000), top: movers.slice(0, limit) };
      },
    );
  };
