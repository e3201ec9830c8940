import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../core/errors.js';
import { EventStream, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { modelsFor } from '../models/index.js';
import { ConcurrencyLimiter } from '../cache/concurrency.js';
import { asset, assetSchema, pageCsp, read, sendAsset } from '../plugins/static-assets.js';
import { binanceCandles } from '../upstream/binance-candles.js';
import { INTERVAL_SECONDS } from '../core/candles.js';
import { OlympicsService, RESOLVE_GRACE_S } from './service.js';
import { OlympicsViews } from './views.js';
import { Ticker, HEARTBEAT_MS, TICKER_REPLAY } from './ticker.js';
import { STREAM_ROUTE_CONFIG } from '../stream/sse.js';
import { TEMPLATES } from './templates.js';
import { BACKFILL_PAIRS, CANDLE_RULE, replayEvents } from './history.js';
import { SCORING_RULES } from './scoring.js';
import { EventDetail, EventPage, EventParams, EventsQuery, Medals, ModeQuery, TickerMessage } from './schemas.js';

const OPEN_EVERY_MS = 60 * 60_000;
const RESOLVE_EVERY_MS = 5 * 60_000;
const CURSOR_PREFIX = 'oly1.';
const tags = ['olympics'];

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

const TEMPLATE_DOCS = TEMPLATES.map(
  (t) => `${t.id} (${t.discipline}, one per ${t.everyMs / 3_600_000} h, resolves after ${t.horizonS / 3600} h)`,
).join('; ');

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
    const pages = {
      page: asset(read('olympics.html'), 'text/html; charset=utf-8', 'no-cache'),
      script: asset(`(() => {\n'use strict';\n${read('olympics.js')}})();\n`, 'text/javascript; charset=utf-8', 'public, max-age=3600'),
      styles: asset(read('watch.css') + read('olympics.css'), 'text/css; charset=utf-8', 'public, max-age=3600'),
    };
    const csp = pageCsp(deps.config.publicUrl);
    /** The panel, or 503 model_unavailable while no model serves the role: every API route answers it first. */
    const requirePanel = () => olympics.panel();
    const common = 'Public: no credentials needed. Answers 503 model_unavailable while no model serves the `panel` role (SVC_MODELS).';

    app.get(
      '/api/v1/olympics/events',
      {
        config: { signed: true },
        schema: {
          tags,
          summary: 'Olympics events, newest first',
          description:
            `Each event is a yes/no question with a machine-checkable outcome, asked of every panel model with the same prompt, data and deadline. Live templates: ${TEMPLATE_DOCS}. ` +
            `Backfill: ${CANDLE_RULE} Filter by status, discipline and mode (default all). ${common}`,
          querystring: EventsQuery,
          response: { 200: EventPage, ...errorResponses(400, 503) },
        },
      },
      async (request) => {
        requirePanel();
        const { status, discipline, mode = 'all', limit = 20, cursor } = request.query;
        const before = cursor === undefined ? undefined : ctx.cursors.decode<{ opened_at: number; id: string }>(CURSOR_PREFIX, cursor);
        const page = await views.events({ status, discipline, mode, limit, before });
        return { events: page.events, next_cursor: page.next ? ctx.cursors.encode(CURSOR_PREFIX, page.next) : null };
      },
    );

    app.get(
      '/api/v1/olympics/events/:id',
      {
        config: { signed: true },
        schema: {
          tags,
          summary: 'One olympics event: question, data with receipts, every answer, outcome and medals',
          description:
            "Each data item carries svc's `_receipt` over the item without it (verify with POST /api/v1/receipt/verify, passing the item as `response`). " +
            `Each answer is a calibration claim for agent olympics:<model-id> (kind = discipline, or <discipline>-backfill). An open event is read by its resolver at resolves_at; ` +
            `unreadable for ${RESOLVE_GRACE_S / 3600} h after, it becomes void. ${SCORING_RULES} ${common}`,
          params: EventParams,
          response: { 200: EventDetail, ...errorResponses(400, 404, 503) },
        },
      },
      async (request) => {
        requirePanel();
        const event = await views.event(request.params.id);
        if (!event) throw new ApiError('not_found', 'no olympics event with this id', { field: 'id' });
        return { ...event, answer_deadline_ms: deps.config.modelDeadlineMs };
      },
    );

    app.get(
      '/api/v1/olympics/medals',
      {
        config: { signed: true },
        schema: {
          tags,
          summary: 'Medal table and standings per model and per discipline',
          description: `Over resolved events of the mode (default live: backfill never mixes in unless asked). Every panel model is listed, played or not. ${SCORING_RULES} ${common}`,
          querystring: Type.Object({ mode: Type.Optional(ModeQuery('live')) }),
          response: { 200: Medals, ...errorResponses(400, 503) },
        },
      },
      async (request) => views.medals(requirePanel(), request.query.mode ?? 'live'),
    );

    app.get(
      '/api/v1/olympics/ticker',
      {
        config: STREAM_ROUTE_CONFIG,
        schema: {
          tags,
          summary: 'Olympics ticker (server-sent events)',
          description:
            `Opens with the comment \`: ok\`; then \`id: <id>\` + \`data: {kind, event_id, ts, …}\` for every event opened, answer recorded, event resolved and medal awarded, on any instance; a comment heartbeat every ${HEARTBEAT_MS / 1000} s. ` +
            `Reconnecting with \`Last-Event-ID\` replays what followed it among the last ${TICKER_REPLAY} messages. HEAD answers the headers only. At most ${deps.config.streamMaxPerIp} streams per IP (429). ${common}`,
          response: { 200: EventStream(TickerMessage, 'Olympics ticker as server-sent events'), ...errorResponses(429, 503) },
        },
      },
      async (request, reply) => {
        requirePanel();
        await ticker.follow(request, reply);
      },
    );

    app.get(
      '/olympics',
      {
        schema: {
          tags,
          summary: 'Olympics scoreboard (HTML)',
          description:
            'A static page over the medals and events routes with live updates from the ticker; says why when no models are configured. Strict CSP: no inline script or style.',
          produces: ['text/html'],
          response: { 200: Type.String({ description: 'the scoreboard page' }) },
        },
      },
      async (request, reply) => {
        reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
        return sendAsset(request, reply, pages.page);
      },
    );
    app.get('/assets/olympics.js', { schema: assetSchema(tags, 'Scoreboard script', pages.script) }, async (request, reply) =>
      sendAsset(request, reply, pages.script),
    );
    app.get('/assets/olympics.css', { schema: assetSchema(tags, 'Scoreboard styles', pages.styles) }, async (request, reply) =>
      sendAsset(request, reply, pages.styles),
    );
  };
