import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { PRICES } from '../payments/pricing.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { requestedTier } from '../payments/tier.js';
import { BacktestService } from './service.js';
import { AnswerPages } from '../data/answer-pages.js';
import { BACKTEST_DESCRIPTION, BacktestAnswer, BacktestQuery } from './schemas.js';

/** Historical candles: a free tail of the range, or the paid range in pages of candles continued by cursor. */
export const backtestRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const backtests = new BacktestService(deps.upstream, deps.sources, ctx.cursors, deps.clock);
    const answerPages = new AnswerPages(deps.repos.answerPages, deps.clock);

    app.get(
      '/api/v1/backtest',
      {
        config: { signed: true },
        schema: {
          tags: ['data'],
          summary: 'Historical OHLCV candles for backtests',
          description: BACKTEST_DESCRIPTION,
          querystring: BacktestQuery,
          response: {
            200: BacktestAnswer,
            ...errorResponses(400, 402, 404, 503),
          },
        },
      },
      async (request, reply) => {
        const { type, q, to, interval = '1h', cursor } = request.query;
        const from = cursor ? backtests.resume(cursor, { type, q, to, interval }) : request.query.from;
        const requirement = {
          amount: PRICES.backtest,
          resource: `${deps.config.publicUrl}/api/v1/backtest`,
          description: 'svc paid backtest (up to 10,000 candles)',
        };
        const grant = await ctx.payments.authorizeTier(request, requirement, requestedTier(request.query));
        if (grant?.stored) return sendStoredAnswer(reply, grant.stored);
        const result = await backtests.candles({ type, q, from, to, interval, paid: Boolean(grant) });
        // Paged before the charge is recorded: once it is, the answer stands for every retry, and must be whole.
        const { max_tokens } = request.query;
        const answer = max_tokens ? await answerPages.first(result, max_tokens, { asOf: result.as_of, sources: [result.source] }) : result;
        if (grant) reply.headers(await ctx.payments.finish(request, grant, { charge: result.count > 0 }));
        return answer;
      },
    );
  };
