import Type from 'typebox';
import type { RouteApp } from '../core/route-app.js';
import { errorResponses, SECURITY } from '../core/schemas.js';
import {
  EVENT_KINDS,
  EndBody,
  EventBody,
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_MAX_PIXELS,
  StartBody,
  StartResponse,
  TEXT_MAX_BYTES,
} from './schemas.js';
import type { ImageQuotas } from './screenshots.js';
import { bearer, retentionHours, type SessionParts } from './routes-shared.js';

/** A base64 screenshot of 1 MiB plus text and JSON: a larger body is refused before it is parsed. */
const EVENT_BODY_LIMIT = Math.ceil(SCREENSHOT_MAX_BYTES / 3) * 4 + 64 * 1024;

const mib = (bytes: number) => `${bytes / 1_048_576} MiB`;
const quotaRule = (q: ImageQuotas) =>
  `Stored screenshots are bounded: ${mib(q.perSessionBytes)} per session (413 image_quota_exceeded), ${mib(q.perClientDayBytes)} per client address and UTC day ` +
  `(429 image_budget_exhausted with Retry-After), and ${mib(q.budgetBytes)} for the instance, which first evicts the images of the sessions that ended longest ago (429 only when live sessions hold it all).`;

/** What the agent writes: it starts a session, posts events with the session token, and ends it. */
export function addSessionWriteRoutes(app: RouteApp, parts: SessionParts): void {
  addStartRoute(app, parts);
  addEventRoute(app, parts);
  addEndRoute(app, parts);
}

function addStartRoute(app: RouteApp, { sessions, settings, tags }: SessionParts): void {
  app.post(
    '/api/agent-session/start',
    {
      schema: {
        tags,
        summary: 'Start a live agent session',
        description:
          'Returns the public `watch_url` and `stream_url` and a `session_token` (shown once, stored hashed) that authorizes events and end. ' +
          `A session without events for \`ttl_minutes\` (default 60, at most ${settings.ttlMaxMin}) expires; ended and expired sessions stay viewable read-only for ${retentionHours(settings)} h, then are deleted. ` +
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
}

function addEventRoute(app: RouteApp, { sessions, settings, tags }: SessionParts): void {
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
          `${quotaRule(settings.images)} ` +
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
}

function addEndRoute(app: RouteApp, { sessions, settings, tags }: SessionParts): void {
  app.post(
    '/api/agent-session/end',
    {
      schema: {
        security: SECURITY.session,
        tags,
        summary: 'End a session (session token required)',
        description: `Same token rules as event; 410 when it already ended or expired. Watchers that asked for state (\`?state=1\`) get a final \`end\` event; every stream closes. The session stays viewable for ${retentionHours(settings)} h.`,
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
}
