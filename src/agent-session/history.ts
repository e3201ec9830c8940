import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { TOKEN_BUDGET, prefixWithin, tokenCounter } from '../core/token-budget.js';
import { SessionEvent, SessionId, SessionStatus } from './schemas.js';
import type { AgentSessionService } from './service.js';

/** Events per page at most (the stream replays in pages of 500 too). */
export const HISTORY_MAX_LIMIT = 500;
const HISTORY_DEFAULT_LIMIT = 100;
/** A page keeps under the token budget with room for its envelope (issue 35): a long history takes several reads. */
const HISTORY_TOKENS = TOKEN_BUDGET - 1_000;

export const HistoryQuery = Type.Object({
  session_id: SessionId,
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      default: 0,
      description: 'the seq after which the page starts (0: from the first event; next_after continues)',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: HISTORY_MAX_LIMIT, default: HISTORY_DEFAULT_LIMIT, description: 'events at most' }),
  ),
});

const HistoryPage = Type.Object(
  {
    session_id: SessionId,
    status: SessionStatus,
    total: Type.Integer({ description: 'events the session holds so far (its last seq)' }),
    count: Type.Integer(),
    after: Type.Integer(),
    next_after: Type.Optional(
      Type.Integer({ description: 'pass as `after` for the next page; absent when this page reaches the last event stored' }),
    ),
    events: Type.Array(SessionEvent),
  },
  { title: 'SessionHistory', description: 'one page of a session’s stored events, in seq order' },
);

/**
 * GET /api/agent-session/events: a session's history as JSON pages, public as the stream is (anyone with the id reads
 * it), for an agent or a script that wants what happened without holding an SSE connection. A page ends at `limit`
 * events or at the token budget, whichever comes first (always at least one event, so a reader moves on).
 */
export function registerHistoryRoute(app: FastifyInstance, sessions: AgentSessionService, tags: string[]): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/agent-session/events',
    {
      schema: {
        tags,
        summary: 'A session’s history as JSON pages (public)',
        description:
          'The events of the session after `after` (a seq), in seq order with no gaps: the same objects the stream sends, its final `end` event ' +
          `included. A page holds at most \`limit\` events (default ${HISTORY_DEFAULT_LIMIT}, at most ${HISTORY_MAX_LIMIT}) and at most ` +
          `${HISTORY_TOKENS.toLocaleString('en')} o200k tokens (at least one event); \`next_after\` continues while stored events remain. ` +
          'Unknown sessions (or ones past their retention) are 404.',
        querystring: HistoryQuery,
        response: { 200: HistoryPage, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { session_id, after = 0, limit = HISTORY_DEFAULT_LIMIT } = request.query;
      const found = await sessions.history(session_id, after, limit);
      if (!found) throw new ApiError('not_found', 'no such session', { field: 'session_id' });
      const events = prefixWithin(found.events, HISTORY_TOKENS, await tokenCounter());
      const last = events.at(-1)?.seq ?? after;
      const more = last < found.info.events ? { next_after: last } : {};
      const { status, events: total } = found.info;
      return { session_id, status, total, count: events.length, after, ...more, events };
    },
  );
}
