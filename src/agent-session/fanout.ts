import type { Bus, Unsubscribe } from '../bus/index.js';
import type { BackgroundErrors } from '../core/background.js';
import { MAX_BUFFERED_BYTES, frameOf as sseFrameOf, type EventStream, type Frame } from '../stream/sse.js';

/**
 * One stream message: the posted event (`session_id, kind, text, screenshot_b64, ts`) plus the
 * session's sequence number. The image is not sent to every watcher: `screenshot_b64` is null and
 * `screenshot_url` (present when the event had one) points to it.
 */
export interface SessionMessage {
  session_id: string;
  kind: string;
  text: string;
  screenshot_b64: null;
  ts: number;
  seq: number;
  screenshot_url?: string;
}

/**
 * `id: <seq>` and one JSON `data:` line. The service's own final `end` event also carries
 * `state: {status}`: it is a state message, written only to watchers that asked for state.
 */
export const frameOf = (m: SessionMessage): Frame => sseFrameOf(m.seq, m.kind === 'end' ? { ...m, state: { status: m.text } } : m);

export const channelOf = (sessionId: string) => `agent-session:${sessionId}`;
/** Live messages held for a watcher while its replay is still being written. */
const MAX_QUEUED = 1000;

/**
 * One SSE connection. Replays are written with backpressure; live messages are written at once
 * and a watcher whose unsent bytes pass the bound is dropped (its socket destroyed) so it never
 * holds the poster or the other watchers back. It reconnects with Last-Event-ID and catches up.
 * Every message is written at most once and in sequence order: anything at or below the last
 * written seq is skipped. Live frames are the feed's shared Buffers, written as they are.
 */
export class Watcher {
  private lastSeq: number;
  private queued: { seq: number; frame: Frame; last: boolean }[] | undefined = [];
  private closed = false;

  /** `wantsState`: the client asked for state messages (`?state=1`), the final end event among them. */
  constructor(
    private readonly out: EventStream,
    afterSeq: number,
    readonly wantsState: boolean,
    private readonly maxBufferedBytes = MAX_BUFFERED_BYTES,
  ) {
    this.lastSeq = afterSeq;
    out.onClose(() => (this.closed = true));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes store-replayed messages, waiting for the client to drain as it goes. */
  async replay(messages: SessionMessage[]): Promise<void> {
    for (const message of messages) {
      if (this.closed) return;
      if (message.seq <= this.lastSeq) continue;
      this.lastSeq = message.seq;
      if (message.kind === 'end') return this.end(frameOf(message));
      if (!this.out.write(frameOf(message))) await this.out.drained();
    }
  }

  /** Ends the replay: queued live messages follow, then every new one is written directly. */
  goLive(): void {
    const queued = this.queued ?? [];
    this.queued = undefined;
    for (const { seq, frame, last } of queued) this.deliver(seq, frame, last);
  }

  /** A live message from the session's feed, already framed; `last` for the session's end event. */
  deliver(seq: number, frame: Frame, last: boolean): void {
    if (this.closed || seq <= this.lastSeq) return;
    if (this.queued) {
      if (this.queued.push({ seq, frame, last }) > MAX_QUEUED) this.drop();
      return;
    }
    this.lastSeq = seq;
    if (last) return this.end(frame);
    this.write(frame);
  }

  /** Any frame: messages, comment heartbeats, id-less state messages such as the watcher count. */
  write(frame: Frame): void {
    if (this.closed) return;
    this.out.write(frame);
    if (this.out.pending > this.maxBufferedBytes) this.drop();
  }

  /** Ends the stream cleanly (after the session's end event, or when the server shuts down). */
  finish(): void {
    this.closed = true;
    this.out.end();
  }

  /** The session's end: its frame for a watcher that wants state, then the stream closes. */
  private end(frame: Frame): void {
    if (this.wantsState) this.write(frame);
    this.finish();
  }

  private drop(): void {
    this.closed = true;
    this.out.destroy();
  }
}

/**
 * This instance's watchers of one session. It subscribes to the session's bus channel once and
 * hands every message to every watcher in sequence order: a message that arrives ahead of one it
 * has not seen (posts on two instances race to the bus) first pulls the missing ones from the
 * store, where an event numbered n is committed only after all before it. When that read fails (the
 * database away) nothing is delivered and nothing is lost: the next message pulls the same gap again.
 */
class SessionFeed {
  readonly watchers = new Set<Watcher>();
  private lastSeq = 0;
  private queue: Promise<void> = Promise.resolve();
  unsubscribe: Unsubscribe = async () => undefined;

  constructor(
    readonly sessionId: string,
    private readonly load: (sessionId: string, afterSeq: number, uptoSeq: number) => Promise<SessionMessage[]>,
    private readonly background: Pick<BackgroundErrors, 'failed' | 'succeeded'>,
  ) {}

  /** Runs `step` after everything already queued; feed state changes only inside the queue. */
  enqueue(step: () => Promise<void> | void): Promise<void> {
    this.queue = this.queue.then(step, step);
    return this.queue;
  }

  startAt(lastSeq: number): void {
    this.lastSeq = lastSeq;
  }

  receive(message: SessionMessage): void {
    this.enqueue(async () => {
      if (message.seq <= this.lastSeq) return;
      if (message.seq > this.lastSeq + 1)
        for (const missed of await this.load(this.sessionId, this.lastSeq, message.seq - 1)) this.broadcast(missed);
      this.broadcast(message);
    }).then(
      () => this.background.succeeded('session-feed'),
      (err: unknown) => this.background.failed('session-feed', err),
    );
  }

  private broadcast(message: SessionMessage): void {
    if (message.seq <= this.lastSeq) return;
    this.lastSeq = message.seq;
    const frame = frameOf(message); // encoded once, not once per watcher
    for (const watcher of this.watchers) watcher.deliver(message.seq, frame, message.kind === 'end');
  }
}

/** Every session feed of this instance, opened with the first watcher and closed with the last. */
export class Feeds {
  private readonly feeds = new Map<string, Promise<SessionFeed>>();

  constructor(
    private readonly bus: Bus,
    private readonly lastSeqOf: (sessionId: string) => Promise<number>,
    private readonly load: (sessionId: string, afterSeq: number, uptoSeq: number) => Promise<SessionMessage[]>,
    private readonly background: Pick<BackgroundErrors, 'failed' | 'succeeded'>,
  ) {}

  /**
   * Adds a watcher; live messages for it start queuing at once (the caller replays from the store
   * and then calls `goLive`), so nothing committed before or after this call is missed.
   */
  async join(sessionId: string, watcher: Watcher): Promise<() => void> {
    let opening = this.feeds.get(sessionId);
    if (!opening) this.feeds.set(sessionId, (opening = this.open(sessionId)));
    const feed = await opening;
    await feed.enqueue(() => void feed.watchers.add(watcher));
    return () => {
      feed.watchers.delete(watcher);
      if (feed.watchers.size > 0 || this.feeds.get(sessionId) !== opening) return;
      this.feeds.delete(sessionId);
      void feed.unsubscribe();
    };
  }

  /** Visits the watchers of every session this instance serves (heartbeats, watcher counts). */
  async each(visit: (sessionId: string, watchers: ReadonlySet<Watcher>) => Promise<void> | void): Promise<void> {
    for (const [sessionId, opening] of this.feeds) await visit(sessionId, (await opening).watchers);
  }

  /** Ends every stream (clients reconnect elsewhere with Last-Event-ID) and leaves the bus. */
  async close(): Promise<void> {
    const feeds = await Promise.all(this.feeds.values());
    this.feeds.clear();
    for (const watcher of feeds.flatMap((feed) => [...feed.watchers])) watcher.finish();
    await Promise.all(feeds.map((feed) => feed.unsubscribe()));
  }

  private async open(sessionId: string): Promise<SessionFeed> {
    const feed = new SessionFeed(sessionId, this.load, this.background);
    // Subscribe first, then read where the store stands: messages arriving in between wait in the queue.
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    void feed.enqueue(() => started);
    try {
      feed.unsubscribe = await this.bus.subscribe(channelOf(sessionId), (message) => feed.receive(message as SessionMessage));
      feed.startAt(await this.lastSeqOf(sessionId));
      return feed;
    } catch (err) {
      this.feeds.delete(sessionId);
      await feed.unsubscribe();
      throw err;
    } finally {
      ready();
    }
  }
}
