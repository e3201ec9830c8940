import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '../bus/index.js';
import { ApiError } from '../core/errors.js';
import type { ConcurrencyLimiter } from '../cache/concurrency.js';
import { ReplayHub } from '../stream/hub.js';
import { answeredHead, openLiveStream, type LiveStream } from '../stream/sse.js';
import { TICKER_CHANNEL } from './service.js';

export const HEARTBEAT_MS = 15_000;
/** Ticker messages kept for Last-Event-ID replay. */
export const TICKER_REPLAY = 500;

/**
 * The olympics ticker: one bus subscription per instance fanned out to its open streams, so every
 * instance relays what any instance's jobs publish. Messages are `id: <id>` + `data: {kind, …}`.
 */
export class Ticker {
  private readonly hub: ReplayHub;
  private readonly streams = new Set<LiveStream>();

  constructor(
    bus: Bus,
    private readonly limiter: ConcurrencyLimiter,
    private readonly maxPerIp: number,
  ) {
    this.hub = new ReplayHub(bus, TICKER_CHANNEL, { replay: TICKER_REPLAY, latest: 0 });
  }

  start(): Promise<void> {
    return this.hub.start();
  }

  /** Ends every stream (before the server waits for its connections) and leaves the bus. */
  async stop(): Promise<void> {
    for (const stream of this.streams) stream.end();
    await this.hub.stop();
  }

  async follow(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (answeredHead(request, reply)) return;
    const slot = await this.limiter.acquire([{ key: `olympics-ticker-ip:${request.ip}`, limit: this.maxPerIp }]);
    if ('full' in slot)
      throw new ApiError('rate_limited', `at most ${this.maxPerIp} concurrent ticker streams per IP`, { limit: this.maxPerIp });
    const stream = openLiveStream(reply, HEARTBEAT_MS);
    this.streams.add(stream);
    for (const message of this.hub.replayAfter(request.headers['last-event-id'] as string | undefined) ?? []) stream.send(message.frame);
    const stopListening = this.hub.listen((message) => stream.send(message.frame));
    stream.onClose(() => {
      this.streams.delete(stream);
      stopListening();
      void slot.lease.release();
    });
  }
}
