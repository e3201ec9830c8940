import Type from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { errorResponses, EventStream } from '../core/schemas.js';
import { MAX_BUFFERED_BYTES, STREAM_ROUTE_CONFIG, answeredHead, openEventStream } from '../stream/sse.js';
import { FRESH_REPLAY, SessionId, SessionEvent, SessionInfo, StreamQuery } from './schemas.js';
import { PULSE_MS } from './service.js';
import type { SessionParts } from './routes-shared.js';

/** Last-Event-ID header, else the `last_event_id` query parameter (for a fresh EventSource); a bad header counts as absent. */
function resumeAfter(request: FastifyRequest, fromQuery: number | undefined): number | undefined {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' && /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : fromQuery;
}

/** What anyone may read of a session: its state, and its events live. */
export function addWatchRoutes(app: RouteApp, parts: SessionParts): void {
  const { sessions, tags } = parts;
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
  addStreamRoute(app, parts);
}

function addStreamRoute(app: RouteApp, { sessions, settings, tags }: SessionParts): void {
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
}
