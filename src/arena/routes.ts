import Type, { type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { FreeObject, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import type { RouteApp } from '../core/route-app.js';
import type { Deps } from '../deps.js';
import { binanceCandles } from '../upstream/binance-candles.js';
import { INTERVAL_SECONDS } from '../core/candles.js';
import { ASSETS, STRATEGIES } from './paper-trader.js';
import { arenaAsset } from './assets.js';
import { ArenaService, MODE_RULE, agentIdOf } from './service.js';
import { MODE_FILTERS, trackRecord } from './track-record.js';
import { COMPARED_ASSETS, COMPARED_STRATEGIES, COMPARE_ID_FORMULA, COMPARE_WINDOWS, METRIC_RULES } from './compare.js';
import { ComparisonRecord } from './schemas.js';
import { Comparisons, dailyAsOf, hourlyAsOf } from './comparisons.js';

const LIVE_EVERY_MS = 15 * 60_000;
const LIVE_WINDOW_CANDLES = 300;
const LIVE_INTERVAL = '1h' as const;
const COMPARE_EVERY_MS = 86_400_000;

export function createArena(deps: Deps): ArenaService {
  const calib = deps.calibration;
  return new ArenaService({
    repo: deps.repos.arena,
    calib,
    key: deps.signingKey,
    issuer: deps.config.issuer,
    clock: deps.clock,
    log: deps.tlog,
  });
}

/**
 * Runs every strategy on each asset's hourly candles from `from` to `to` (Unix s): the scheduler's
 * arena job on the latest ones, the backfill with `replay` over history.
 */
export async function runArena(
  deps: Deps,
  arena: ArenaService,
  from: number,
  to: number,
  options: { replay?: boolean } = {},
): Promise<void> {
  const step = INTERVAL_SECONDS[LIVE_INTERVAL];
  for (const asset of ASSETS) {
    const deadline = Date.now() + 30_000;
    const candles = await binanceCandles.fetch(
      deps.upstream.host('binance'),
      `${asset}USDT`,
      LIVE_INTERVAL,
      from,
      to,
      Math.ceil((to - from) / step) + 1,
      deadline,
    );
    const closed = candles.filter((c) => c.t + step <= to).sort((a, b) => a.t - b.t);
    for (const strategy of STRATEGIES) await arena.ingest(strategy, asset, closed, step, options);
  }
}

/** The arena: its two jobs, then the signed comparisons and attestations, then the track records (registered in that order). */
export const arenaRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
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

    const comparisons = new Comparisons(arena, deps.repos.arena);
    ctx.jobs.push({
      name: 'arena-compare',
      everyMs: COMPARE_EVERY_MS,
      run: async () => {
        const asOf = dailyAsOf(deps.clock.now());
        for (const window of COMPARE_WINDOWS) for (const mode of MODE_FILTERS) await comparisons.issue(window, mode, asOf);
      },
    });

    addAttestationRoutes(app, deps, arena, comparisons);
    addTrackRecordRoute(app, deps, arena);
  };

/** Signed records: a comparison of every strategy and asset over a window, and any attestation by its id. */
function addAttestationRoutes(app: RouteApp, deps: Deps, arena: ArenaService, comparisons: Comparisons): void {
  app.get(
    '/api/v1/arena/compare',
    {
      schema: {
        tags: ['arena'],
        summary: 'Signed comparative attestation: the 15 strategy × asset combinations ranked over a window',
        description:
          `Ranks ${COMPARED_STRATEGIES.join(', ')} on ${COMPARED_ASSETS.join(', ')} (exactly these 15 combinations) as of the start of the current UTC hour (as_of_ts, Unix ms). ${METRIC_RULES} ` +
          `The answer is a signed attestation record: its id follows ${COMPARE_ID_FORMULA}; it is stored when first issued and GET /api/v1/arena/attestation/{id} returns it later byte for byte, ` +
          'so anyone can show that strategy A beat strategy B on an asset over a window as of then. Its `_receipt` is that of a GET of the attestation URL (verify it with the published key or POST /api/v1/receipt/verify). ' +
          'The scheduler issues one comparison per window and mode every day as of 00:00 UTC. `mode=live` never counts a backfilled trade. Public: no credentials needed.',
        querystring: Type.Object({
          window: Type.Optional(
            StringEnum(COMPARE_WINDOWS, { default: '30d', description: 'exits in the last 30 or 90 days before as_of_ts, or all' }),
          ),
          mode: Type.Optional(StringEnum(MODE_FILTERS, { default: 'live', description: 'live (default), backfill or all trades' })),
        }),
        response: { 200: ComparisonRecord, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { window = '30d', mode = 'live' } = request.query;
      return (await comparisons.issue(window, mode, hourlyAsOf(deps.clock.now()))) as Static<typeof ComparisonRecord>;
    },
  );

  app.get(
    '/api/v1/arena/attestation/:id',
    {
      schema: {
        tags: ['arena'],
        summary: 'The signed record of a trade entry or exit, or of a comparison',
        description:
          'The record carries its `_receipt`, signed when the event was recorded, as the receipt of this GET; verify it with the published key or POST /api/v1/receipt/verify (pass the body as `response`).',
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
}

/** One strategy's public paper-trading record on one asset. */
function addTrackRecordRoute(app: RouteApp, deps: Deps, arena: ArenaService): void {
  app.get(
    '/api/v1/arena/track-record',
    {
      config: { signed: true },
      schema: {
        tags: ['arena'],
        summary: 'Public track record of one strategy on one asset',
        description:
          `Strategies: ${STRATEGIES.join(', ')}; assets: ${ASSETS.join(', ')}. Paper trades, long only, on closed hourly candles: entries fill at the ` +
          "signal candle's close; exits at a target (rsi2_target, rsi14_target, macd_cross_down, bb_mid_target, trend_exit), a stop (stop_loss, filled at the stop price, or at the open on a gap down) " +
          'or after 72 candles (max_hold). P&L adds up in percent. Each entry records a calibration claim for agent arena:<strategy>:<asset>; its exit resolves it (a verified outcome). ' +
          `Every trade, chain entry, attestation and claim payload carries \`mode\`: ${MODE_RULE}. live_trade_count and backfill_trade_count count closed trades of each mode; ` +
          'the headline figures (total_pnl_pct, trade/win/loss counts, win_rate, peak, drawdown), the chain and the curve cover the trades `mode` selects (default all). Public: no credentials needed.',
        querystring: Type.Object({
          strategy: StringEnum(STRATEGIES),
          asset: Type.String({
            maxLength: 200,
            examples: ['BTC'],
            description: `${ASSETS.join(', ')}, in crypto-price's vocabulary (BTC, bitcoin or svc-ent:cr.bitcoin); another asset is a 400 naming these`,
          }),
          mode: Type.Optional(StringEnum(MODE_FILTERS, { default: 'all', description: 'live, backfill or all (default)' })),
        }),
        response: { 200: FreeObject("the spec's track-record fields"), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { strategy, mode = 'all' } = request.query;
      const asset = arenaAsset(request.query.asset);
      const cardUrl = `${deps.config.publicUrl}/api/v1/calib/agent_card?agent_id=${encodeURIComponent(agentIdOf(strategy, asset))}`;
      const record = trackRecord(
        strategy,
        asset,
        await arena.trades(strategy, asset),
        { baseUrl: deps.config.publicUrl, cardUrl },
        deps.clock.now(),
        mode,
      );
      reply.provenance = { asOf: Math.floor(record.ts / 1000), sources: ['binance'] };
      return record;
    },
  );
}
