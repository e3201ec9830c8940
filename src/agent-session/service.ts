import { createHash, randomBytes } from 'node:crypto';
import type { Bus } from '../bus/index.js';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { sameSecret } from '../core/secrets.js';
import type { ConcurrencyLimiter } from '../cache/concurrency.js';
import type { AgentSessionsRepo, EventRow, SessionRow } from '../store/repos/agent-sessions.js';
import { Frame, HEARTBEAT, idlessFrameOf, type EventStream } from '../stream/sse.js';
import { Feeds, Watcher, channelOf, type SessionMessage } from './fanout.js';
import { decodeScreenshot, type ScreenshotQuotas } from './screenshots.js';
import { FRESH_REPLAY, TEXT_MAX_BYTES, TS_FUTURE_MS, TS_PAST_MS, TTL_DEFAULT_MIN, type EventKind } from './schemas.js';
import type { BackgroundErrors } from '../core/background.js';

export interface SessionSettings {
  publicUrl: string;
  retentionMs: number;
  watchersPerIp: number;
  watchersPerSession: number;
}

export interface StartInput {
  label?: string;
  agent_id?: string;
  visibility?: 'public' | 'unlisted';
  ttl_minutes?: number;
}

export interface EventInput {
  kind: EventKind;
  text?: string;
  screenshot_b64?: string | null;
  ts?: number;
}

const TOKEN_PREFIX = 'ast_';
const REPLAY_PAGE = 500;
/** Heartbeat comment plus the watcher count, to every open stream. */
export const PULSE_MS = 10_000;
/** How long a disconnected EventSource waits before it reconnects. */
const RETRY = new Frame('retry: 3000\n\n');

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Live agent sessions: the agent starts one, posts events with its session token and ends it;
 * anyone with the id watches. Events are stored with a per-session sequence number, then
 * published on the bus; every instance fans them out to its own watchers (see fanout.ts).
 */
export class AgentSessionService {
  private readonly feeds: Feeds;

  constructor(
    private readonly repo: AgentSessionsRepo,
    private readonly bus: Bus,
    private readonly limiter: ConcurrencyLimiter,
    private readonly clock: Clock,
    private readonly settings: SessionSettings,
    private readonly images: ScreenshotQuotas,
    background: BackgroundErrors,
  ) {
    this.feeds = new Feeds(
      bus,
      async (id) => (await this.repo.get(id))?.last_seq ?? 0,
      (id, after, upto) => this.messages(id, after, upto),
      background,
    );
  }

  async start(input: StartInput) {
    const now = this.clock.now();
    const ttlMs = (input.ttl_minutes ?? TTL_DEFAULT_MIN) * 60_000;
    const sessionId = randomId('as_');
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    await this.repo.create({
      session_id: sessionId,
      token_hash: sha256Hex(token),
      label: input.label ?? null,
      agent_id: input.agent_id ?? null,
      visibility: input.visibility ?? 'public',
      status: 'live',
      ttl_ms: ttlMs,
      created_at: now,
      expires_at: now + ttlMs,
      ended_at: null,
      delete_at: null,
      last_seq: 0,
      image_bytes: 0,
    });
    return {
      session_id: sessionId,
      watch_url: `${this.settings.publicUrl}/watch/${sessionId}`,
      stream_url: `${this.settings.publicUrl}/api/agent-session/stream?session_id=${sessionId}`,
      session_token: token,
      expires_at: now + ttlMs,
    };
  }

  /** The live session `token` may write to: 401 without a token, 404 unknown, 403 wrong token, 410 no longer live. */
  async authorize(sessionId: string, token: string | undefined): Promise<SessionRow> {
    if (!token)
      throw new ApiError('unauthorized', 'send the session token as Authorization: Bearer <session_token>', { field: 'Authorization' });
    const session = await this.repo.get(sessionId);
    if (!session) throw new ApiError('not_found', 'no such session', { field: 'session_id' });
    if (!sameSecret(sha256Hex(token), session.token_hash))
      throw new ApiError('forbidden', 'this token does not belong to the session', { field: 'Authorization' });
    if (session.status !== 'live')
      throw new ApiError('session_ended', `the session is ${session.status}; it is read-only now`, { status: session.status });
    return session;
  }

  /** Appends an event from `clientIp` (whose screenshot quota it counts against) to a session already authorized. */
  async post(session: SessionRow, input: EventInput, clientIp: string): Promise<{ ok: true; seq: number }> {
    const sessionId = session.session_id;
    const now = this.clock.now();
    const text = input.text ?? '';
    const ts = input.ts ?? now;
    if (Buffer.byteLength(text) > TEXT_MAX_BYTES)
      throw new ApiError('validation_failed', `text must be at most ${TEXT_MAX_BYTES} bytes of UTF-8`, {
        field: 'text',
        max_bytes: TEXT_MAX_BYTES,
      });
    if (ts < now - TS_PAST_MS || ts > now + TS_FUTURE_MS) {
      throw new ApiError('validation_failed', 'ts must be Unix ms within the last hour or the next 5 minutes', {
        field: 'ts',
        min: now - TS_PAST_MS,
        max: now + TS_FUTURE_MS,
      });
    }
    if (input.kind === 'screenshot' && !input.screenshot_b64)
      throw new ApiError('validation_failed', 'a screenshot event needs screenshot_b64', { field: 'screenshot_b64' });
    const decoded = input.screenshot_b64 ? await decodeScreenshot(input.screenshot_b64) : undefined;
    if (decoded) await this.images.admit(session, clientIp, decoded);
    const screenshot = decoded && { ...decoded, created_at: now };
    const row = await this.repo.append(
      sessionId,
      { kind: input.kind, text, ts, screenshot_sha256: screenshot?.sha256 ?? null },
      now,
      screenshot,
    );
    if (!row) throw new ApiError('session_ended', 'the session ended while this event was posted', {});
    await this.publish(row);
    return { ok: true, seq: row.seq };
  }

  async end(sessionId: string) {
    const now = this.clock.now();
    const row = await this.repo.finish(sessionId, 'ended', now, now + this.settings.retentionMs);
    if (!row) throw new ApiError('session_ended', 'the session is no longer live', {});
    await this.publish(row);
    return { ok: true as const, status: 'ended' as const, ended_at: now, delete_at: now + this.settings.retentionMs };
  }

  async info(sessionId: string) {
    const session = await this.repo.get(sessionId);
    if (!session) return undefined;
    const { session_id, label, agent_id, visibility, status, created_at, expires_at, ended_at, delete_at, last_seq } = session;
    const watchers = await this.limiter.count(watchersKey(sessionId));
    return { session_id, label, agent_id, visibility, status, created_at, expires_at, ended_at, delete_at, events: last_seq, watchers };
  }

  /**
   * A page of a session's stored events after `afterSeq`, in seq order (the end event included: it says how the session
   * ended), for a JSON read of its history; undefined for an unknown session.
   */
  async history(sessionId: string, afterSeq: number, limit: number) {
    const info = await this.info(sessionId);
    if (!info) return undefined;
    return { info, events: await this.messages(sessionId, afterSeq, Number.MAX_SAFE_INTEGER, limit) };
  }

  screenshot(sha256: string) {
    return this.repo.screenshot(sha256);
  }

  /**
   * Streams a session to `open()`'s writable: the events after `afterSeq` (or the latest
   * FRESH_REPLAY) from the store, then live ones until it ends. With `wantsState` it starts with a
   * `{state}` message (the session's state) and ends with the final `end` event; without, a client
   * sees only what the agent posted. 404 for an unknown session, 429 past a watcher cap; false
   * (nothing opened) when the client already has everything an ended session will send it.
   */
  async watch(sessionId: string, ip: string, afterSeq: number | undefined, wantsState: boolean, open: () => EventStream): Promise<boolean> {
    const info = await this.info(sessionId);
    if (!info) throw new ApiError('not_found', 'no such session', { field: 'session_id' });
    const from = afterSeq ?? Math.max(0, info.events - FRESH_REPLAY);
    // An ended session's last event is its end, which only state watchers get.
    if (info.status !== 'live' && from >= (wantsState ? info.events : info.events - 1)) return false;
    const caps = [
      { key: `watch-ip:${ip}`, limit: this.settings.watchersPerIp },
      { key: watchersKey(sessionId), limit: this.settings.watchersPerSession },
    ];
    const slot = await this.limiter.acquire(caps);
    if ('full' in slot)
      throw new ApiError(
        'rate_limited',
        `at most ${slot.full.limit} concurrent ${slot.full === caps[0] ? 'streams per IP' : 'watchers of this session'}`,
        { limit: slot.full.limit },
      );
    const out = open();
    const watcher = new Watcher(out, from, wantsState);
    let leave = () => {};
    out.onClose(() => {
      leave();
      void slot.lease.release();
    });
    out.write(RETRY);
    if (wantsState) out.write(idlessFrameOf({ state: { ...info, watchers: info.watchers + 1 } }));
    leave = await this.feeds.join(sessionId, watcher);
    if (watcher.isClosed) leave(); // the client left while we joined
    for (let after = from; !watcher.isClosed;) {
      const page = await this.messages(sessionId, after, Number.MAX_SAFE_INTEGER, REPLAY_PAGE);
      await watcher.replay(page);
      if (page.length < REPLAY_PAGE) break;
      after = page[page.length - 1]!.seq;
    }
    watcher.goLive();
    return true;
  }

  /** Heartbeat to every stream this instance serves, and the watcher count to those that want state. */
  async pulse(): Promise<void> {
    await this.feeds.each(async (sessionId, watchers) => {
      const count = idlessFrameOf({ state: { watchers: await this.limiter.count(watchersKey(sessionId)) } });
      for (const watcher of watchers) {
        watcher.write(HEARTBEAT);
        if (watcher.wantsState) watcher.write(count);
      }
    });
  }

  /** Expires live sessions idle past their TTL (each gets its end event), then deletes those past retention. */
  async sweep(): Promise<{ expired: number; deleted: number }> {
    const now = this.clock.now();
    let expired = 0;
    for (const sessionId of await this.repo.expiredLive(now)) {
      const row = await this.repo.finish(sessionId, 'expired', now, now + this.settings.retentionMs);
      if (!row) continue; // ended by its agent meanwhile
      expired += 1;
      await this.publish(row);
    }
    return { expired, deleted: await this.repo.deleteRetired(now) };
  }

  close(): Promise<void> {
    return this.feeds.close();
  }

  private async messages(sessionId: string, afterSeq: number, uptoSeq: number, limit = REPLAY_PAGE): Promise<SessionMessage[]> {
    const rows = await this.repo.events(sessionId, afterSeq, limit);
    return rows.filter((row) => row.seq <= uptoSeq).map((row) => this.toMessage(row));
  }

  private toMessage(row: EventRow): SessionMessage {
    const { session_id, kind, text, ts, seq, screenshot_sha256: sha256 } = row;
    const image = sha256 ? { screenshot_url: `${this.settings.publicUrl}/api/agent-session/screenshot/${sha256}` } : {};
    return { session_id, kind, text, screenshot_b64: null, ts, seq, ...image };
  }

  /** A stored event that fails to reach the bus still reaches watchers: the next one makes their feed fetch the gap. */
  private async publish(row: EventRow): Promise<void> {
    await this.bus.publish(channelOf(row.session_id), this.toMessage(row)).catch(() => undefined);
  }
}

const watchersKey = (sessionId: string) => `watch-session:${sessionId}`;
