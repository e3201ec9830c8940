import { randomBytes } from 'node:crypto';
import type { Bus, Unsubscribe } from '../bus/index.js';
import { frameOf, type Frame } from './sse.js';

/** What travels on the bus: messages published together, under one id stem and an optional key. */
interface Batch {
  id: string;
  /** Messages of the same key replace each other as its latest (a type and q of the data stream). */
  key?: string;
  items: Record<string, unknown>[];
}

/** One message as every client of this instance gets it: framed once, the same bytes for all. */
export interface Framed {
  readonly id: string;
  readonly data: Record<string, unknown>;
  readonly frame: Frame;
}

/**
 * Framed when a client first needs it, then kept: most ticks (every fresh upstream answer's rows, 20 for a bundle of 20)
 * are published while no client watches, and are never sent.
 */
class FramedOnDemand implements Framed {
  private framed?: Frame;

  constructor(
    readonly id: string,
    readonly data: Record<string, unknown>,
  ) {}

  get frame(): Frame {
    return (this.framed ??= frameOf(this.id, this.data));
  }
}

export type FramedListener = (message: Framed) => void;

/** The data stream's channel: ticks of every fresh upstream answer. */
export const TICKS_CHANNEL = 'ticks';
/** Ticks one answer publishes at most (its first rows), so a batch stays bounded. */
export const MAX_TICKS_PER_ANSWER = 200;

/**
 * Publishes a fresh upstream answer on the data stream: one tick `{type, q, ...row}` per row, keyed
 * by type and q so the latest answer of every key greets a new client. `type` and `q` are the
 * answer's even if a row had fields of those names.
 */
export function publishAnswer(bus: Bus, answer: { type: string; q: string; rows: Record<string, unknown>[] }): Promise<void> {
  const { type, q } = answer;
  const ticks = answer.rows.slice(0, MAX_TICKS_PER_ANSWER).map((row) => Object.assign({ type, q }, row, { type, q }));
  return publishBatch(bus, TICKS_CHANNEL, ticks, `${type}\n${q}`);
}

/** Ids are unique across instances without coordination: a random stem per process and a counter. */
const INSTANCE = randomBytes(4).toString('hex');
let published = 0;

/** Publishes messages on a hub's channel; every instance's hub relays them to its clients. */
export async function publishBatch(bus: Bus, channel: string, items: Record<string, unknown>[], key?: string): Promise<void> {
  if (items.length === 0) return;
  const batch: Batch = { id: `${INSTANCE}-${(published++).toString(36)}`, items, ...(key === undefined ? {} : { key }) };
  await bus.publish(channel, batch);
}

export interface HubLimits {
  /** Messages kept for Last-Event-ID replay. */
  replay: number;
  /** Messages kept as the latest of their key, over all keys (0: none kept); the oldest keys go first. */
  latest: number;
}

/**
 * Fans one bus channel out to this instance's SSE clients. With Redis every instance's clients get
 * every message. Each message is framed once; the last `replay` are kept so a client reconnecting
 * with Last-Event-ID resumes without a gap, and the latest batch of every key so a new client
 * starts with the current values.
 */
export class ReplayHub {
  private readonly buffer: Framed[] = [];
  private readonly latest = new Map<string, Framed[]>();
  private latestCount = 0;
  private readonly listeners = new Set<FramedListener>();
  private unsubscribe?: Unsubscribe;

  constructor(
    private readonly bus: Bus,
    private readonly channel: string,
    private readonly limits: HubLimits,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(this.channel, (message) => this.deliver(message as Batch));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.listeners.clear();
  }

  /** Messages after `lastEventId`; undefined when there is none or it left the buffer (too old). */
  replayAfter(lastEventId: string | undefined): Framed[] | undefined {
    if (!lastEventId) return undefined;
    const index = this.buffer.findIndex((m) => m.id === lastEventId);
    return index < 0 ? undefined : this.buffer.slice(index + 1);
  }

  /** The latest batch of every key, oldest key first. */
  current(): Framed[] {
    return [...this.latest.values()].flat();
  }

  listen(listener: FramedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get clientCount(): number {
    return this.listeners.size;
  }

  private deliver(batch: Batch): void {
    const framed = batch.items.map((data, i) => new FramedOnDemand(batch.items.length === 1 ? batch.id : `${batch.id}.${i}`, data));
    this.buffer.push(...framed);
    if (this.buffer.length > this.limits.replay) this.buffer.splice(0, this.buffer.length - this.limits.replay);
    if (batch.key !== undefined) this.keep(batch.key, framed);
    for (const message of framed) for (const listener of this.listeners) listener(message);
  }

  private keep(key: string, framed: Framed[]): void {
    this.latestCount -= this.latest.get(key)?.length ?? 0;
    this.latest.delete(key); // re-inserted last: the map's order is the keys' age
    if (framed.length > this.limits.latest) return;
    this.latest.set(key, framed);
    this.latestCount += framed.length;
    for (const [oldest, messages] of this.latest) {
      if (this.latestCount <= this.limits.latest) break;
      this.latest.delete(oldest);
      this.latestCount -= messages.length;
    }
  }
}
