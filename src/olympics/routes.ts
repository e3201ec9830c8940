import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { modelsFor } from '../models/index.js';
import { ConcurrencyLimiter } from '../cache/concurrency.js';
import { binanceCandles } from '../upstream/binance-candles.js';
import { INTERVAL_SECONDS } from '../core/candles.js';
import { OlympicsService } from './service.js';
import { OlympicsViews } from './views.js';
import { Ticker } from './ticker.js';
import { BACKFILL_PAIRS, replayEvents } from './history.js';
import { addEventRoutes, addTickerRoute } from './routes-events.js';
import { addScoreboardRoutes } from './routes-scoreboard.js';

const OPEN_EVERY_MS = 60 * 60_000;
const RESOLVE_EVERY_MS = 5 * 60_000;

export async function createOlympics(app: FastifyInstance, deps: Deps): Promise<OlympicsService> {
  const calib = deps.calibration;
  return new OlympicsService({
    repo: deps.repos.olympics,
    calib,
    models: modelsFor(deps),
    runner: deps.sources,
    bus: deps.bus,
    key: deps.signingKey,
    issuer: deps.config.issuer,
    clock: deps.clock,
    deadlineMs: deps.config.modelDeadlineMs,
  });
}

/** Replays [fromS, toS] of hourly Binance candles as backfill events, each asked of the panel and graded at once. */
export async function runBackfill(deps: Deps, olympics: OlympicsService, fromS: number, toS: number): Promise<number> {
  olympics.panel(); // model_unavailable before any candle is fetched
  const step = INTERVAL_SECONDS['1h'];
  let played = 0;
  for (const pair of BACKFILL_PAIRS) {
    const shownFrom = fromS - 2 * 86_400;
    const candles = await binanceCandles.fetch(
      deps.upstream.host('binance'),
      pair,
      '1h',
      shownFrom,
      toS,
      Math.ceil((toS - shownFrom) / step) + 1,
      Date.now() + 30_000,
    );
    for (const replay of replayEvents(pair, candles, fromS, toS)) {
      const id = await olympics.play(replay.event);
      if (id && (await olympics.settle(id, replay.outcome, replay.evidence))) played++;
    }
  }
  return played;
}

/** The olympics: events and medals, the ticker, then the scoreboard page (registered in that order, which /openapi.json keeps). */
export const olympicsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const olympics = await createOlympics(app, deps);
    const views = new OlympicsViews(deps.repos.olympics);
    const limiter = new ConcurrencyLimiter(deps.cache, deps.clock);
    const ticker = new Ticker(deps.bus, limiter, deps.config.streamMaxPerIp);
    app.addHook('onReady', () => ticker.start());
    app.addHook('preClose', () => ticker.stop());
    app.addHook('onClose', (_instance, done) => {
      limiter.close();
      done();
    });
    ctx.jobs.push({ name: 'olympics-open', everyMs: OPEN_EVERY_MS, run: async () => void (await olympics.openDue()) });
    ctx.jobs.push({ name: 'olympics-resolve', everyMs: RESOLVE_EVERY_MS, run: async () => void (await olympics.resolveDue()) });

    const parts = { ctx, olympics, views, ticker };
    addEventRoutes(app, parts);
    addTickerRoute(app, parts);
    addScoreboardRoutes(app, parts);
  };
