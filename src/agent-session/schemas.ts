import Type from 'typebox';
import { StringEnum } from '../core/schemas.js';

/** What an agent may post; `end` is reserved for the service's own final event. */
export const EVENT_KINDS = ['click', 'search', 'fetch', 'screenshot', 'navigate', 'type', 'scroll', 'thought', 'log', 'error'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const TEXT_MAX_BYTES = 4096;
export const SCREENSHOT_MAX_BYTES = 1_048_576;
/** 16 megapixels (4096 × 4096; a 5K display is 14.7): the header is checked against it before anything is decoded. */
export const SCREENSHOT_MAX_PIXELS = 16_777_216;
/** Accepted `ts`: at most this far in the past or the future of the server's clock. */
export const TS_PAST_MS = 60 * 60_000;
export const TS_FUTURE_MS = 5 * 60_000;
export const TTL_DEFAULT_MIN = 60;
/** A fresh stream (no Last-Event-ID) starts with this many of the latest events. */
export const FRESH_REPLAY = 200;

export const SessionId = Type.String({ pattern: '^as_[A-Za-z0-9_-]{22,64}$', description: '`as_` + 128 random bits, base64url' });
export const SessionStatus = StringEnum(['live', 'ended', 'expired'] as const, {
  description: 'live → ended (POST /end) or expired (no event for ttl_minutes)',
});

export const StartBody = (ttlMaxMin: number) =>
  Type.Object(
    {
      label: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'shown as the watch page title' })),
      agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'who is acting, e.g. openai:browser-agent' })),
      visibility: Type.Optional(
        StringEnum(['public', 'unlisted'] as const, {
          default: 'public',
          description: 'unlisted watch pages answer with X-Robots-Tag: noindex',
        }),
      ),
      ttl_minutes: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: ttlMaxMin,
          default: TTL_DEFAULT_MIN,
          description: `minutes without an event before the session expires (1–${ttlMaxMin})`,
        }),
      ),
    },
    { additionalProperties: false },
  );

export const StartResponse = Type.Object({
  session_id: SessionId,
  watch_url: Type.String({ description: '{base_url}/watch/<session_id>: public HTML page' }),
  stream_url: Type.String({ description: '{base_url}/api/agent-session/stream?session_id=<session_id>: public SSE stream' }),
  session_token: Type.String({ description: 'authorizes events and end as `Authorization: Bearer <token>`; shown once, stored hashed' }),
  expires_at: Type.Integer({ description: 'Unix ms; moves to last event + ttl_minutes with each event' }),
});

export const EventBody = Type.Object(
  {
    session_id: SessionId,
    kind: StringEnum(EVENT_KINDS, { description: `one of ${EVENT_KINDS.join(', ')}` }),
    text: Type.Optional(
      Type.String({
        maxLength: TEXT_MAX_BYTES,
        description: `what happened, at most ${TEXT_MAX_BYTES} bytes of UTF-8; shown as plain text`,
      }),
    ),
    screenshot_b64: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description:
          'PNG, JPEG or WebP (checked by magic bytes), base64, at most 1 MiB decoded (413 beyond); required when kind is screenshot',
      }),
    ),
    ts: Type.Optional(Type.Integer({ description: 'Unix ms of the action; default now; within the last hour or the next 5 minutes' })),
  },
  { additionalProperties: false },
);

export const EndBody = Type.Object({ session_id: SessionId }, { additionalProperties: false });

export const StreamQuery = Type.Object({
  session_id: SessionId,
  last_event_id: Type.Optional(
    Type.Integer({ minimum: 0, description: 'same as the Last-Event-ID header, for clients that cannot set it' }),
  ),
  state: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1,
      default: 0,
      description: '1: also send state messages (session state, watcher counts, the final end event), each with a `state` field',
    }),
  ),
});

export const SessionInfo = Type.Object({
  session_id: SessionId,
  label: Type.Union([Type.String(), Type.Null()]),
  agent_id: Type.Union([Type.String(), Type.Null()]),
  visibility: Type.String(),
  status: SessionStatus,
  created_at: Type.Integer({ description: 'Unix ms' }),
  expires_at: Type.Integer({ description: 'Unix ms; when a live session expires without further events' }),
  ended_at: Type.Union([Type.Integer(), Type.Null()], { description: 'Unix ms' }),
  delete_at: Type.Union([Type.Integer(), Type.Null()], { description: 'Unix ms; when an ended or expired session is deleted' }),
  events: Type.Integer({ description: 'events so far, the final end event included' }),
  watchers: Type.Integer({ description: 'open streams on every instance' }),
});

/** One stored event as the stream and the history read send it: the image by its URL, never its bytes. */
export const SessionEvent = Type.Object(
  {
    session_id: Type.String(),
    kind: Type.String({ description: `${EVENT_KINDS.join(', ')}; end: the final event (on the stream with state=1 only)` }),
    text: Type.String(),
    screenshot_b64: Type.Null({ description: 'always null: see screenshot_url' }),
    ts: Type.Integer({ description: 'Unix ms' }),
    seq: Type.Integer({ description: 'per-session sequence number, also the SSE id' }),
    screenshot_url: Type.Optional(Type.String({ description: 'where the posted image is, when the event had one' })),
  },
  { title: 'SessionEvent', description: 'one posted event as streamed' },
);
