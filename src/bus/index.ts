import type { Redis } from 'ioredis';
import { MemoryBus } from './memory.js';
import { RedisBus } from './redis.js';

export type Unsubscribe = () => Promise<void>;

/** Publish/subscribe of JSON messages; with Redis every instance's subscribers get every message. */
export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}

export function createBus(redis: Redis | undefined): Bus {
  return redis ? new RedisBus(redis) : new MemoryBus();
}
