import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createBus, type Bus } from '../../src/bus/index.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';

const nextMessage = (bus: Bus, channel: string) =>
  new Promise<unknown>((resolve) => {
    void bus.subscribe(channel, resolve);
  });

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
    const onA = new Promise<unknown[]>((resolve) => {
      const got: unknown[] = [];
      void a.subscribe('ticks', (m) => got.push(m) === 2 && resolve(got));
    });
    const onB = nextMessage(b, 'ticks');
    await new Promise((r) => setTimeout(r, 50)); // Redis SUBSCRIBE is asynchronous
    await a.publish('ticks', { type: 'crypto-price', coin: 'bitcoin', usd: 1 });
    await b.publish('ticks', { type: 'crypto-price', coin: 'ethereum', usd: 2 });
    expect(await onB).toEqual({ type: 'crypto-price', coin: 'bitcoin', usd: 1 });
    expect(await onA).toEqual([{ type: 'crypto-price', coin: 'bitcoin', usd: 1 }, { type: 'crypto-price', coin: 'ethereum', usd: 2 }]);
  });

  it('stops delivering after unsubscribe and keeps channels apart', async () => {
    const got: unknown[] = [];
    const off = await b.subscribe('quiet', (m) => got.push(m));
    const other = nextMessage(b, 'loud');
    await new Promise((r) => setTimeout(r, 50));
    await off();
    await a.publish('quiet', 1);
    await a.publish('loud', 2);
    expect(await other).toBe(2);
    expect(got).toEqual([]);
  });
});
