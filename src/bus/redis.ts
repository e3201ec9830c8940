import type { Redis } from 'ioredis';
import type { Bus, Unsubscribe } from './index.js';

/**
 * Redis pub/sub. A subscribed connection cannot publish, so subscriptions use one duplicate
 * connection shared by every channel of this instance. ioredis's keyPrefix does not apply to
 * channels, so the prefix is added here.
 *
 * Outages: a publish fails within the command deadline (callers decide what that means: a session
 * event is stored first, so its watchers fetch the gap from the store). The subscriber reconnects
 * by itself and, once ready again, subscribes to every channel with a listener, so fan-out resumes.
 */
export class RedisBus implements Bus {
  private subscriber?: Redis;
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();
  private readonly prefix: string;

  constructor(private readonly redis: Redis) {
    this.prefix = `${redis.options.keyPrefix ?? ''}bus:`;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.redis.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    const subscriber = this.connection();
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      await this.listen(channel);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        await subscriber.unsubscribe(this.prefix + channel).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber?.disconnect();
  }

  /** Subscribes on Redis; during an outage the `ready` of the reconnected subscriber does it instead. */
  private async listen(channel: string): Promise<void> {
    await this.subscriber?.subscribe(this.prefix + channel).catch(() => undefined);
  }

  private connection(): Redis {
    if (!this.subscriber) {
      // Its offline queue holds only SUBSCRIBE and UNSUBSCRIBE (one per channel), so it is bounded.
      this.subscriber = this.redis.duplicate({ enableOfflineQueue: true, lazyConnect: false });
      this.subscriber.on('error', () => undefined);
      this.subscriber.on('ready', () => {
        for (const channel of this.handlers.keys()) void this.listen(channel);
      });
      this.subscriber.on('message', (channel: string, text: string) => {
        const handlers = this.handlers.get(channel.slice(this.prefix.length));
        if (!handlers) return;
        const message: unknown = JSON.parse(text);
        for (const handler of handlers) handler(message);
      });
    }
    return this.subscriber;
  }
}
