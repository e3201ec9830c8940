import type { Bus, Unsubscribe } from '../bus/index.js';

export interface Tick {
  /** Publisher-assigned, shared by every instance: `<ms>-<seq>`. */
  id: string;
  data: Record<string, unknown>;
}

export type TickListener = (tick: Tick) => void;

const CHANNEL = 'ticks';
const BUFFER_SIZE = 500;

/**
 * Fans live ticks out to this instance's SSE clients. Ticks travel over the bus, so with Redis
 * every instance's clients get every tick; each instance keeps the last BUFFER_SIZE ticks so a
 * client reconnecting with Last-Event-ID resumes without a gap.
 */
export class StreamHub {
  private readonly buffer: Tick[] = [];
  private readonly listeners = new Set<TickListener>();
  private unsubscribe?: Unsubscribe;
  private seq = 0;

  constructor(private readonly bus: Bus) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(CHANNEL, (message) => this.deliver(message as Tick));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.listeners.clear();
  }

  async publish(data: Record<string, unknown>, nowMs: number): Promise<void> {
    await this.bus.publish(CHANNEL, { id: `${nowMs}-${this.seq++}`, data } satisfies Tick);
  }

  /** Ticks after `lastEventId` still in the buffer; all of them when the id is unknown (too old). */
  replayAfter(lastEventId: string | undefined): Tick[] {
    if (!lastEventId) return [];
    const index = this.buffer.findIndex((t) => t.id === lastEventId);
    return index < 0 ? [...this.buffer] : this.buffer.slice(index + 1);
  }

  listen(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get clientCount(): number {
    return this.listeners.size;
  }

  private deliver(tick: Tick): void {
    this.buffer.push(tick);
    if (this.buffer.length > BUFFER_SIZE) this.buffer.shift();
    for (const listener of this.listeners) listener(tick);
  }
}
