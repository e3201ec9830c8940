import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { ClusterRepo, InstanceRecord, InstanceStart } from '../store/repos/cluster.js';

/** How often an instance beats, and how long after its last beat it still counts as live (three beats missed). */
export const HEARTBEAT_MS = 5_000;
export const LIVE_FOR_MS = 15_000;

export interface MemberIdentity {
  kid: string;
  redis: boolean;
  version: string;
}

/**
 * This process as a member of the instances sharing its database: a heartbeat row refreshed every few seconds
 * and deleted on a clean stop. A database outage only skips beats (the row goes stale, the process keeps running).
 */
export class ClusterMembership {
  readonly id = randomUUID();
  private timer?: NodeJS.Timeout;
  private started?: InstanceStart;

  constructor(
    private readonly repo: ClusterRepo,
    private readonly clock: Clock,
    private readonly identity: MemberIdentity,
  ) {}

  /** The first heartbeat (awaited: the others see this instance from now on), then one every HEARTBEAT_MS. */
  async start(): Promise<void> {
    if (this.started) return;
    const { kid, redis, version } = this.identity;
    this.started = { id: this.id, kid, redis: redis ? 1 : 0, version, host: hostname(), pid: process.pid, started_at: this.clock.now() };
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async beat(): Promise<void> {
    if (this.started) await this.repo.beat(this.started, this.clock.now()).catch(() => undefined);
  }

  /** Instances whose heartbeat is fresh, this one included once started. */
  live(): Promise<InstanceRecord[]> {
    return this.repo.beatingSince(this.clock.now() - LIVE_FOR_MS);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!this.started) return;
    this.started = undefined;
    await this.repo.leave(this.id).catch(() => undefined);
  }
}
