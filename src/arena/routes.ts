import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { FreeObject, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { CalibrationService } from '../calib/service.js';
import { binanceCandles } from '../backtest/providers/binance.js';
import { INTERVAL_SECONDS } from '../core/candles.js';
import { ASSETS, STRATEGIES } from './paper-trader.js';
import { ArenaService, MODE_RULE, agentIdOf } from './service.js';
import { MODE_FILTERS, trackRecord } from './track-record.js';

const LIVE_EVERY_MS = 15 * 60_000;
const LIVE_WINDOW_CANDLES = 300;
const LIVE_INTERVAL = '1h' as const;

export function createArena(deps: Deps): ArenaService {
  const calib = new CalibrationService(deps.repos.calibration, deps.clock, deps.sources);
  return new ArenaService({ repo: deps.repos.arena, calib, key: deps.signingKey, issuer: deps.config.issuer, clock: deps.clock });
}

/**
 * Runs every strategy on each asset's hourly candles from `from` to `to` (Unix s): the scheduler's
 * arena job on the latest ones, the backfill with `replay` over history.
 */
export async function runArena(deps: Deps, arena: ArenaService, from: number, to: number, options: { replay?: boolean } = {}): Promise<void> {
  const step = INTERVAL_SECONDS[LIVE_INTERVAL];
  for (const asset of ASSETS) {
    const deadline = Date.now() + 30_000;
    const candles = await binanceCandles.fetch(deps.upstream.host('binance'), `${asset}USDT`, LIVE_INTERVAL, from, to, Math.ceil((to - from) / step) + 1, deadline);
    const closed = candles.filter((c) => c.t + step <= to).sort((a, b) => a.t - b.t);
    for (const strategy of STRATEGIES) await arena.ingest(strategy, asset, closed, step, options);
  }
}

export const arenaRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const arena = createArena(deps);
  ctx.jobs.push({
    name: 'arena',
    everyMs: LIVE_EVERY_MS,
    run: async () => {
      const nowS = Math.floor(deps.clock.now() / 1000);
      await runArena(deps, arena, nowS - LIVE_WINDOW_CANDLES * INTERVAL_SECONDS[LIVE_INTERVAL], nowS);
    },
  });

  app.get(
    '/api/v1/arena/attestation/:id',
    {
      schema: {
        tags: ['arena'],
        summary: 'The signed record of a trade entry or exit',
        description: 'The record carries its `_receipt`, signed when the event was recorded, as the receipt of this GET; verify it with the published key or POST /api/v1/receipt/verify (pass the body as `response`).',
        params: Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{24}$', description: 'the id part of arena-att:<id>' }) }),
        response: { 200: FreeObject('attestation record with _receipt'), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const record = await arena.attestation(request.params.id);
      if (!record) throw new ApiError('not_found', 'no attestation with this id');
      return record;
    },
  );

  app.get(
    '/api/v1/arena/track-record',
    {
      config: { signed: true },
      schema: {
        tags: ['arena'],
        summary: 'Public track record of one strategy on one asset',
        description:
          `Strategies: ${STRATEGIES.join(', ')}; assets: ${ASSETS.join(', ')}. Paper trades, long only, on closed hourly candles: entries fill at the ` +
          'signal candle\'s close; exits at a target (rsi2_target, rsi14_target, macd_cross_down, bb_mid_target, trend_exit), a stop (stop_loss, filled at the stop price, or at the open on a gap down) ' +
          'or after 72 candles (max_hold). P&L adds up in percent. Each entry records a calibration claim for agent arena:<strategy>:<asset>; its exit resolves it (a verified outcome). ' +
          `Every trade, chain entry, attestation and claim payload carries \`mode\`: ${MODE_RULE}. live_trade_count and backfill_trade_count count closed trades of each mode; ` +
          'the headline figures (total_pnl_pct, trade/win/loss counts, win_rate, peak, drawdown), the chain and the curve cover the trades `mode` selects (default all). Public: no credentials needed.',
        querystring: Type.Object({
          strategy: StringEnum(STRATEGIES),
          asset: StringEnum(ASSETS),
          mode: Type.Optional(StringEnum(MODE_FILTERS, { default: 'all', description: 'live, backfill or all (default)' })),
        }),
        response: { 200: FreeObject('the spec\'s track-record fields'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { strategy, asset, mode = 'all' } = request.query;
      const cardUrl = `${deps.config.publicUrl}/api/v1/calib/agent_card?agent_id=${encodeURIComponent(agentIdOf(strategy, asset))}`;
      const record = trackRecord(strategy, asset, await arena.trades(strategy, asset), { baseUrl: deps.config.publicUrl, cardUrl }, deps.clock.now(), mode);
      reply.provenance = { asOf: Math.floor(record.ts / 1000), sources: ['binance'] };
      return record;
    },
  );
};
