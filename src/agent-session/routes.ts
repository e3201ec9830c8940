import Type from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../core/errors.js';
import { errorResponses, EventStream, SECURITY } from '../core/schemas.js';
import { ConcurrencyLimiter } from '../cache/concurrency.js';
import { MAX_BUFFERED_BYTES, STREAM_ROUTE_CONFIG, answeredHead, openEventStream } from '../stream/sse.js';
import { assetSchema, pageCsp, sendAsset } from '../plugins/static-assets.js';
import { loadPages } from './pages.js';
import {
  EVENT_KINDS,
  EndBody,
  EventBody,
  FRESH_REPLAY,
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_MAX_PIXELS,
  SessionId,
  SessionEvent,
  SessionInfo,
  StartBody,
  StartResponse,
  StreamQuery,
  TEXT_MAX_BYTES,
} from './schemas.js';
import { AgentSessionService, PULSE_MS } from './service.js';
import { ScreenshotQuotas, type ImageQuotas } from './screenshots.js';
import { registerHistoryRoute } from './history.js';

const SWEEP_EVERY_MS = 60_000;
/** A base64 screenshot of 1 MiB plus text and JSON: a larger body is refused before it is parsed. */
const EVENT_BODY_LIMIT = Math.ceil(SCREENSHOT_MAX_BYTES / 3) * 4 + 64 * 1024;

const Binary = (description: string) => Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description });
const NotModified = Type.Null({ description: 'not modified (If-None-Match)' });

const mib = (bytes: number) => `${bytes / 1_048_576} MiB`;
const quotaRule = (q: ImageQuotas) =>
  `Stored screenshots are bounded: ${mib(q.perSessionBytes)} per session (413 image_quota_exceeded), ${mib(q.perClientDayBytes)} per client address and UTC day ` +
  `(429 image_budget_exhausted with Retry-After), and ${mib(q.budgetBytes)} for the instance, which first evicts the images of the sessions that ended longest ago (429 only when live sessions hold it all).`;

const bearer = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** Last-Event-ID header, else the `last_event_id` query parameter (for a fresh EventSource); a bad header counts as absent. */
function resumeAfter(request: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : fromQuery;
}

export const agentSessionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const settings = { publicUrl: deps.config.publicUrl, ...deps.config.session };
    const limiter = new ConcurrencyLimiter(deps.cache, deps.clock);
    const images = new ScreenshotQuotas(deps.repos.agentSessions, deps.cache, deps.clock, deps.config.session.images);
    const sessions = new AgentSessionService(deps.repos.agentSessions, deps.bus, limiter, deps.clock, settings, images, deps.background);
    const pages = loadPages();
    const csp = pageCsp(deps.config.publicUrl);
    const retentionH = settings.retentionMs / 3_600_000;
    ctx.jobs.push({ name: 'agent-session-sweep', everyMs: SWEEP_EVERY_MS, run: async () => void (await sessions.sweep()) });
    const pulse = setInterval(
      () => void sessions.pulse().catch((err: unknown) => app.log.warn({ err }, 'session pulse failed')),
      PULSE_MS,
    ).unref();
    // Before the server waits for open connections to finish: end the streams so it need not wait forever.
    app.addHook('preClose', async () => {
      clearInterval(pulse);
      await sessions.close();
    });
    app.addHook('onClose', async () => limiter.close());
    const tags = ['sessions'];

    app.post(
      '/api/agent-session/start',
      {
        schema: {
          tags,
          summary: 'Start a live agent session',
          description:
            'Returns the public `watch_url` and `stream_url` and a `session_token` (shown once, stored hashed) that authorizes events and end. ' +
            `A session without events for \`ttl_minutes\` (default 60, at most ${settings.ttlMaxMin}) expires; ended and expired sessions stay viewable read-only for ${retentionH} h, then are deleted. ` +
            'Rate-limited per client like every request.',
          body: StartBody(settings.ttlMaxMin),
          response: { 200: StartResponse, ...errorResponses(400, 429) },
        },
        // The body is optional: no body means every default.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => sessions.start(request.body),
    );

    app.post(
      '/api/agent-session/event',
      {
        bodyLimit: EVENT_BODY_LIMIT,
        schema: {
          security: SECURITY.session,
          tags,
          summary: 'Post what the agent did (session token required)',
          description:
            '`Authorization: Bearer <session_token>`: missing 401, wrong 403, unknown session 404, ended or expired 410. ' +
            `Kinds: ${EVENT_KINDS.join(', ')} (\`end\` is the service's own). \`text\` at most ${TEXT_MAX_BYTES} bytes; \`screenshot_b64\` a PNG, JPEG or WebP by its magic bytes ` +
            `(415 otherwise) that decodes (400 invalid_image otherwise), at most ${SCREENSHOT_MAX_BYTES} bytes decoded (413) and ${SCREENSHOT_MAX_PIXELS} pixels by its header ` +
            '(422 image_too_many_pixels, checked before decoding; 503 while too many images wait to be decoded), stored once by SHA-256 and streamed as `screenshot_url`. ' +
            `${quotaRule(deps.config.session.images)} ` +
            '`ts` (Unix ms, default now) must lie within the last hour or the next 5 minutes. Each event gets the next `seq` of its session (1, 2, …) and moves the expiry to now + ttl.',
          body: EventBody,
          response: {
            200: Type.Object({ ok: Type.Literal(true), seq: Type.Integer() }),
            ...errorResponses(400, 401, 403, 404, 410, 413, 415, 422, 429, 503),
          },
        },
      },
      async (request) => {
        const { session_id: sessionId, ...event } = request.body;
        return sessions.post(await sessions.authorize(sessionId, bearer(request)), event, request.ip);
      },
    );

    app.post(
      '/api/agent-session/end',
      {
        schema: {
          security: SECURITY.session,
          tags,
          summary: 'End a session (session token required)',
          description: `Same token rules as event; 410 when it already ended or expired. Watchers that asked for state (\`?state=1\`) get a final \`end\` event; every stream closes. The session stays viewable for ${retentionH} h.`,
          body: EndBody,
          response: {
            200: Type.Object({
              ok: Type.Literal(true),
              status: Type.Literal('ended'),
              ended_at: Type.Integer({ description: 'Unix ms' }),
              delete_at: Type.Integer({ description: 'Unix ms' }),
            }),
            ...errorResponses(400, 401, 403, 404, 410),
          },
        },
      },
      async (request) => {
        await sessions.authorize(request.body.session_id, bearer(request));
        return sessions.end(request.body.session_id);
      },
    );

    app.get(
      '/api/agent-session/session',
      {
        schema: {
          tags,
          summary: 'State of a session (public)',
          querystring: Type.Object({ session_id: SessionId }),
          response: { 200: SessionInfo, ...errorResponses(400, 404) },
        },
      },
      async (request) => {
        const info = await sessions.info(request.query.session_id);
        if (!info) throw new ApiError('not_found', 'no such session', { field: 'session_id' });
        return info;
      },
    );

    app.get(
      '/api/agent-session/stream',
      {
        config: STREAM_ROUTE_CONFIG,
        schema: {
          tags,
          summary: 'Follow a session live (server-sent events, public)',
          description:
            'Opens with the comment `: ok`. Then one message per posted event: `id: <seq>` and `data: {session_id, kind, text, screenshot_b64, ts, seq, screenshot_url?}` ' +
            '(no `event:` name, so EventSource.onmessage gets every one), in seq order with no gaps or repeats. `screenshot_b64` is always null on the stream: the image is stored once ' +
            'and `screenshot_url` (present when the event had one) points to it, so watchers do not each receive its bytes. ' +
            `A fresh stream starts with the latest ${FRESH_REPLAY} events; with \`Last-Event-ID\` (or \`last_event_id\`) it replays every later event from the store, then continues live. ` +
            `A comment heartbeat comes every ${PULSE_MS / 1000} s. When the session ends or expires the stream closes; reconnecting after that answers 204 (EventSource then stops). ` +
            '`state=1` adds state messages, each with a `state` field: an id-less `{state: <session state>}` first, `{state: {watchers}}` with every heartbeat, ' +
            'and the final event `{kind: "end", text: "ended"|"expired", state: {status}, …}` (with its seq) before the stream closes. HEAD answers the headers only. ' +
            `At most ${settings.watchersPerIp} streams per IP and ${settings.watchersPerSession} per session, counted across instances (429). ` +
            `A watcher more than ${MAX_BUFFERED_BYTES / 1024} KiB behind is disconnected and resumes with Last-Event-ID.`,
          querystring: StreamQuery,
          response: {
            200: EventStream(SessionEvent, 'The session’s events as server-sent events'),
            204: Type.Null({ description: 'the session ended and the client has its final event' }),
            ...errorResponses(400, 404, 429),
          },
        },
      },
      async (request, reply) => {
        if (answeredHead(request, reply)) return reply;
        const after = resumeAfter(request, request.query.last_event_id);
        const wantsState = request.query.state === 1;
        const streaming = await sessions.watch(request.query.session_id, request.ip, after, wantsState, () => openEventStream(reply));
        if (!streaming) return reply.code(204).send(null);
      },
    );

    registerHistoryRoute(app, sessions, tags);

    app.get(
      '/api/agent-session/screenshot/:sha256',
      {
        schema: {
          tags,
          summary: 'A posted screenshot, by its SHA-256',
          description: 'Immutable: served with a year-long cache lifetime and the hash as ETag.',
          params: Type.Object({ sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
          response: { 200: Binary('image/png, image/jpeg or image/webp'), 304: NotModified, ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const etag = `"${request.params.sha256}"`;
        reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('etag', etag)
          .header('x-content-type-options', 'nosniff');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
        const shot = await sessions.screenshot(request.params.sha256);
        if (!shot) throw new ApiError('not_found', 'no such screenshot');
        reply.header('content-security-policy', "default-src 'none'").header('cross-origin-resource-policy', 'cross-origin');
        return reply.type(shot.mime).send(Buffer.from(shot.data_b64, 'base64'));
      },
    );

    app.get(
      '/watch/:session_id',
      {
        schema: {
          tags,
          summary: 'Watch page of a session (HTML)',
          description:
            'A static page that follows the stream; unknown sessions get a 404 page. Strict CSP: no inline script or style, no third-party origins.',
          params: Type.Object({ session_id: Type.String({ maxLength: 100 }) }),
          produces: ['text/html'],
          response: {
            200: Type.String({ description: 'the watch page' }),
            404: Type.String({ description: 'a page saying the session is unknown' }),
          },
        },
      },
      async (request, reply) => {
        reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer');
        const info = /^as_[A-Za-z0-9_-]{22,64}$/.test(request.params.session_id)
          ? await sessions.info(request.params.session_id)
          : undefined;
        if (!info) return sendAsset(request, reply, pages.notFoundPage, 404);
        if (info.visibility === 'unlisted') reply.header('x-robots-tag', 'noindex, nofollow');
        return sendAsset(request, reply, pages.watchPage);
      },
    );

    const staticRoute = (path: string, summary: string, file: (typeof pages)[keyof typeof pages], crossOrigin = false) =>
      app.get(path, { schema: assetSchema(tags, summary, file) }, async (request, reply) => {
        if (crossOrigin) reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
        return sendAsset(request, reply, file);
      });
    staticRoute('/assets/watch.js', 'Watch page script', pages.watchScript);
    staticRoute('/assets/watch.css', 'Watch page styles', pages.watchStyles);
    staticRoute(
      '/widget/watch.js',
      'Embeddable session widget: <script src=".../widget/watch.js" data-session="as_…">',
      pages.widgetScript,
      true,
    );
  };
