import Type from 'typebox';
import { ApiError } from '../core/errors.js';
import { EventStream, errorResponses } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { STREAM_ROUTE_CONFIG } from '../stream/sse.js';
import { RESOLVE_GRACE_S } from './service.js';
import { HEARTBEAT_MS, TICKER_REPLAY } from './ticker.js';
import { TEMPLATES } from './templates.js';
import { CANDLE_RULE } from './history.js';
import { SCORING_RULES } from './scoring.js';
import { EventDetail, EventPage, EventParams, EventsQuery, Medals, ModeQuery, TickerMessage } from './schemas.js';
import { COMMON, tags, type OlympicsParts } from './routes-shared.js';

const CURSOR_PREFIX = 'oly1.';
const TEMPLATE_DOCS = TEMPLATES.map(
  (t) => `${t.id} (${t.discipline}, one per ${t.everyMs / 3_600_000} h, resolves after ${t.horizonS / 3600} h)`,
).join('; ');

/** The events (a page of them, or one with its data and answers) and the medal table they add up to. */
export function addEventRoutes(app: RouteApp, { ctx, olympics, views }: OlympicsParts): void {
  const { deps } = ctx;
  /** The panel, or 503 model_unavailable while no model serves the role: every API route answers it first. */
  const requirePanel = () => olympics.panel();
  app.get(
    '/api/v1/olympics/events',
    {
      config: { signed: true },
      schema: {
        tags,
        summary: 'Olympics events, newest first',
        description:
          `Each event is a yes/no question with a machine-checkable outcome, asked of every panel model with the same prompt, data and deadline. Live templates: ${TEMPLATE_DOCS}. ` +
          `Backfill: ${CANDLE_RULE} Filter by status, discipline and mode (default all). ${COMMON}`,
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
          `unreadable for ${RESOLVE_GRACE_S / 3600} h after, it becomes void. ${SCORING_RULES} ${COMMON}`,
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
        description: `Over resolved events of the mode (default live: backfill never mixes in unless asked). Every panel model is listed, played or not. ${SCORING_RULES} ${COMMON}`,
        querystring: Type.Object({ mode: Type.Optional(ModeQuery('live')) }),
        response: { 200: Medals, ...errorResponses(400, 503) },
      },
    },
    async (request) => views.medals(requirePanel(), request.query.mode ?? 'live'),
  );
}

/** The live ticker: every event opened, answer recorded, event resolved and medal awarded, as server-sent events. */
export function addTickerRoute(app: RouteApp, { ctx, olympics, ticker }: OlympicsParts): void {
  const { deps } = ctx;
  app.get(
    '/api/v1/olympics/ticker',
    {
      config: STREAM_ROUTE_CONFIG,
      schema: {
        tags,
        summary: 'Olympics ticker (server-sent events)',
        description:
          `Opens with the comment \`: ok\`; then \`id: <id>\` + \`data: {kind, event_id, ts, …}\` for every event opened, answer recorded, event resolved and medal awarded, on any instance; a comment heartbeat every ${HEARTBEAT_MS / 1000} s. ` +
          `Reconnecting with \`Last-Event-ID\` replays what followed it among the last ${TICKER_REPLAY} messages. HEAD answers the headers only. At most ${deps.config.streamMaxPerIp} streams per IP (429). ${COMMON}`,
        response: { 200: EventStream(TickerMessage, 'Olympics ticker as server-sent events'), ...errorResponses(429, 503) },
      },
    },
    async (request, reply) => {
      olympics.panel(); // 503 model_unavailable while no model serves the panel role
      await ticker.follow(request, reply);
    },
  );
}
