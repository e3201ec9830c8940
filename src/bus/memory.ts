import { EventEmitter } from 'node:events';
import type { Bus, Unsubscribe } from './index.js';

export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(channel: string, message: unknown): Promise<void> {
    // Deliver a copy, as Redis would, so subscribers cannot mutate the publisher's object.
    this.emitter.emit(channel, structuredClone(message));
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
