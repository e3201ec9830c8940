import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus, Unsubscribe } from '../bus/index.js';
import { ApiError } from '../core/errors.js';
import type { ConcurrencyLimiter } from '../protection/concurrency.js';
import { openEventStream } from '../stream/sse.js';
import { TICKER_CHANNEL } from './service.js';

export const HEARTBEAT_MS = 15_000;

type Listener = (message: { kind: string }) => void;

/**
 * The olympics ticker: one bus subscription per instance fanned out to its open streams, so every
 * instance relays what any instance's jobs publish. Messages are `event: <kind>` + `data: <JSON>`.
 */
export class Ticker {
  private readonly listeners = new Set<Listener>();
  private readonly streams = new Set<{ end(): void }>();
  private unsubscribe?: Unsubscribe;

  constructor(
    private readonly bus: Bus,
    private readonly limiter: ConcurrencyLimiter,
    private readonly maxPerIp: number,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(TICKER_CHANNEL, (message) => {
      for (const listener of this.listeners) listener(message as { kind: string });
    });
  }

  /** Ends every stream (before the server waits for its connections) and leaves the bus. */
  async stop(): Promise<void> {
    for (const stream of this.streams) stream.end();
    await this.unsubscribe?.();
  }

  async follow(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const slot = await this.limiter.acquire([{ key: `olympics-ticker-ip:${request.ip}`, limit: this.maxPerIp }]);
    if ('full' in slot)
      throw new ApiError('rate_limited', `at most ${this.maxPerIp} concurrent ticker streams per IP`, { limit: this.maxPerIp });
    const res = openEventStream(reply);
    this.streams.add(res);
    res.write(': connected\n\n');
    const listener: Listener = (message) => res.write(`event: ${message.kind}\ndata: ${JSON.stringify(message)}\n\n`);
    this.listeners.add(listener);
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    request.raw.on('close', () => {
      this.streams.delete(res);
      this.listeners.delete(listener);
      clearInterval(heartbeat);
      void slot.lease.release();
    });
  }
}
