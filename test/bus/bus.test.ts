import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createBus, type Bus } from '../../src/bus/index.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';

/** Subscribes (Redis SUBSCRIBE is acknowledged asynchronously, so wait for it) and returns the next message. */
async function nextMessage(bus: Bus, channel: string): Promise<{ message: Promise<unknown> }> {
  let deliver!: (m: unknown) => void;
  const message = new Promise<unknown>((resolve) => (deliver = resolve));
  await bus.subscribe(channel, deliver);
  return { message };
}

describe.each(BUS_BACKENDS)('bus on %s', (backend) => {
  const prefix = `${uniqueName('bus')}:`;
  const redis: Redis[] = [];
  const open = () => {
    if (backend === 'memory') return shared ?? (shared = createBus(undefined));
    const connection = new Redis(process.env.REDIS_URL!, { keyPrefix: prefix });
    redis.push(connection);
    return createBus(connection);
  };
  let shared: Bus | undefined;
  let a: Bus;
  let b: Bus;
  beforeAll(() => {
    a = open();
    b = open(); // with Redis: a second instance; in memory: the same process bus
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    for (const r of redis) r.disconnect();
  });

  it('delivers a published message to every subscriber, across instances', async () => {
    let bothOnA!: (got: unknown[]) => void;
    const onA = new Promise<unknown[]>((resolve) => (bothOnA = resolve));
    const got: unknown[] = [];
    await a.subscribe('ticks', (m) => got.push(m) === 2 && bothOnA(got));
    const onB = (await nextMessage(b, 'ticks')).message;
    await a.publish('ticks', { type: 'crypto-price', coin: 'bitcoin', usd: 1 });
    await b.publish('ticks', { type: 'crypto-price', coin: 'ethereum', usd: 2 });
    expect(await onB).toEqual({ type: 'crypto-price', coin: 'bitcoin', usd: 1 });
    expect(await onA).toEqual([
      { type: 'crypto-price', coin: 'bitcoin', usd: 1 },
      { type: 'crypto-price', coin: 'ethereum', usd: 2 },
    ]);
  });

  it('stops delivering after unsubscribe and keeps channels apart', async () => {
    const got: unknown[] = [];
    const off = await b.subscribe('quiet', (m) => got.push(m));
    const other = (await nextMessage(b, 'loud')).message;
    await off();
    await a.publish('quiet', 1);
    await a.publish('loud', 2);
    expect(await other).toBe(2);
    expect(got).toEqual([]);
  });
});
