import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { FreeFlag, StringEnum, errorResponses } from '../core/schemas.js';
import { ApiError } from '../core/errors.js';
import type { AppContext } from '../app-context.js';
import { PRICES } from '../payments/pricing.js';
import { INTERVALS } from './candles.js';
import { BACKTEST_TYPES } from './providers/index.js';
import { BacktestService, FREE_CANDLES, PAID_CANDLES } from './service.js';

const Candle = Type.Object({ t: Type.Integer(), o: Type.Number(), h: Type.Number(), l: Type.Number(), c: Type.Number(), v: Type.Number() });

export const backtestRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const backtests = new BacktestService(deps.upstream, ctx.cursors, deps.clock);

  app.get(
    '/api/v1/backtest',
    {
      config: { signed: true },
      schema: {
        tags: ['data'],
        summary: 'Historical OHLCV candles for backtests',
        description:
          `Candles \`{t,o,h,l,c,v}\` (t = open time, Unix s) sorted ascending, one per t, never after \`to\` or after now (a candle still forming is left out). ` +
          `crypto-price: Binance klines (q = BTC or BTCUSDT; every interval). stock-quote: Yahoo daily chart (1d only). forex: ECB reference rates via Frankfurter ` +
          `(1d only; o = h = l = c = the day's rate, v = 0). Unpaid (or free=1): the last ${FREE_CANDLES} candles of the range. Paid ` +
          `(${PRICES.backtest} USDC atomic units via X-Payment, or a pass): up to ${PAID_CANDLES} per call; a longer range continues with \`cursor=<_cursor>\` ` +
          '(svc-bt-cur:…), which carries the query. A present but invalid X-Payment is a 402.',
        querystring: Type.Object({
          type: Type.Optional(StringEnum(BACKTEST_TYPES)),
          q: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
          from: Type.Optional(Type.Integer({ minimum: 0, description: 'Unix seconds' })),
          to: Type.Optional(Type.Integer({ minimum: 1, description: 'Unix seconds' })),
          interval: Type.Optional(StringEnum(INTERVALS, { default: '1h' })),
          cursor: Type.Optional(Type.String({ maxLength: 1024, description: 'continue a paid range (svc-bt-cur:…)' })),
          free: FreeFlag,
        }),
        response: {
          200: Type.Object({
            type: Type.String(),
            q: Type.String(),
            interval: Type.String(),
            count: Type.Integer(),
            paid: Type.Boolean(),
            source: Type.String(),
            as_of: Type.Integer(),
            data: Type.Array(Candle),
            _cursor: Type.Optional(Type.String()),
          }),
          ...errorResponses(400, 402, 503),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const resumed = query.cursor ? backtests.resume(query.cursor) : undefined;
      const params = resumed ?? { type: query.type, q: query.q, from: query.from, to: query.to, interval: query.interval ?? '1h' };
      const { type, q, from, to, interval } = requireFields(params, ['type', 'q', 'from', 'to']);
      const requirement = { amount: PRICES.backtest, resource: `${deps.config.publicUrl}/api/v1/backtest`, description: 'svc paid backtest (up to 10,000 candles)' };
      const grant = query.free === '1' ? undefined : await ctx.payments.authorize(request, requirement);
      if (grant?.storedResponse) return grant.storedResponse as Awaited<ReturnType<typeof backtests.candles>>;
      const result = await backtests.candles({ type, q, from, to, interval, paid: Boolean(grant) });
      if (grant) reply.headers(await ctx.payments.finish(request, grant, { charge: result.count > 0, body: result }));
      return result;
    },
  );
};

/** `type`, `q`, `from` and `to` are required unless a cursor carries them. */
function requireFields<T extends object, K extends keyof T>(params: T, keys: K[]): T & { [P in K]-?: NonNullable<T[P]> } {
  for (const field of keys) {
    if (params[field] === undefined) {
      throw new ApiError('validation_failed', `querystring: ${String(field)} is required`, { field, rule: 'required', in: 'querystring' });
    }
  }
  return params as T & { [P in K]-?: NonNullable<T[P]> };
}
