import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import { beforeDeadline } from '../sources/deadline.js';
import { WINDOW_MINUTES, type HealthSnapshot } from '../upstream/health.js';

/** An instance's snapshot lives this long after its last flush: a stopped instance drops out of the figures. */
const SNAPSHOT_TTL_MS = WINDOW_MINUTES * 60_000;
/** Health is advisory: a slow Redis never holds up a status read or a flush for longer than this. */
const REDIS_DEADLINE_MS = 500;
const INSTANCES = 'health:instances';
const snapshotKey = (instance: string) => `health:i:${instance}`;

/**
 * Upstream health shared across instances: each instance writes its whole snapshot (a few kB of counts)
 * under its own key every few seconds and lists itself in a sorted set by flush time; a reader merges the
 * snapshots of the instances seen within the window. No per-call Redis traffic, no read-modify-write races.
 */
export class SharedHealth {
  constructor(
    private readonly redis: Redis,
    private readonly instance: string,
    private readonly clock: Clock,
  ) {}

  async publish(snapshot: HealthSnapshot): Promise<void> {
    const now = this.clock.now();
    const write = this.redis
      .multi()
      .set(snapshotKey(this.instance), JSON.stringify(snapshot), 'PX', SNAPSHOT_TTL_MS)
      .zadd(INSTANCES, now, this.instance)
      .zremrangebyscore(INSTANCES, '-inf', now - SNAPSHOT_TTL_MS)
      .pexpire(INSTANCES, SNAPSHOT_TTL_MS)
      .exec();
    await this.withinDeadline(write);
  }

  /** The other live instances' snapshots; none when Redis does not answer in time. */
  async others(): Promise<HealthSnapshot[]> {
    const read = async () => {
      const ids = await this.redis.zrangebyscore(INSTANCES, this.clock.now() - SNAPSHOT_TTL_MS, '+inf');
      const keys = ids.filter((id) => id !== this.instance).map(snapshotKey);
      if (keys.length === 0) return [];
      const texts = await this.redis.mget(...keys);
      return texts.flatMap((text) => (text ? [JSON.parse(text) as HealthSnapshot] : []));
    };
    return (await this.withinDeadline(read())) ?? [];
  }

  private async withinDeadline<T>(work: Promise<T>): Promise<T | undefined> {
    const late = () => new Error('redis did not answer in time');
    work.catch(() => {}); // a late failure after the deadline is of no interest
    return beforeDeadline(work, Date.now() + REDIS_DEADLINE_MS, late).catch(() => undefined);
  }
}
