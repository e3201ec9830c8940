import type { Cache } from '../cache/index.js';
import type { Clock } from '../core/clock.js';

/** Where each instance records its last probe (/readyz, /healthz) that reached the shared database. */
const KEY = 'readyz:store-reached';
/** A record older than this says nothing about now (balancers probe every few seconds; Kubernetes every 10 s by default). */
export const REACH_FRESH_MS = 30_000;

export interface Reach {
  by: string;
  at: number;
}

/**
 * Whether a shared database this instance cannot reach is reached by another instance (docs/operations.md,
 * "Liveness and readiness"). Failing readiness takes one instance out of the balancer, failing liveness restarts it;
 * when the database is away for every instance, taking them all out would only replace svc's documented answers
 * (503 `store_unavailable` with Retry-After, and everything that needs no database) with the balancer's own error,
 * and restarting them all would not bring the database back. So both probes fail for the database only when another
 * instance has reached it since this one's failures began.
 *
 * Every probe that reaches the database writes this instance's id and the time under one key of the shared
 * cache (Redis: one SET per probe). Without Redis, or while it is away, an instance sees only its own records
 * and cannot tell: it counts the outage as shared and stays ready.
 */
export class PeerReach {
  /** When the probe that began the current run of failures started. */
  private failingSince?: number;

  constructor(
    private readonly cache: Cache,
    private readonly instanceId: string,
    private readonly clock: Clock,
  ) {}

  /** This instance's probe reached the database: recorded before the probe answers, so a peer probed next sees it. */
  async reached(): Promise<void> {
    this.failingSince = undefined;
    const reach: Reach = { by: this.instanceId, at: this.clock.now() };
    await this.cache.set(KEY, reach, REACH_FRESH_MS).catch(() => undefined); // a lost record only delays a peer's verdict
  }

  /** The latest record of a probe that reached the database; never rejects. */
  latest(): Promise<Reach | undefined> {
    return this.cache.get<Reach>(KEY).catch(() => undefined);
  }

  /**
   * This instance's probe, begun at `startedAt`, did not reach the database: does `latest` (read during that probe)
   * say another instance has reached it since this instance's failures began?
   */
  reachedByOthers(startedAt: number, latest: Reach | undefined): boolean {
    this.failingSince ??= startedAt;
    const since = this.failingSince;
    return Boolean(latest && latest.by !== this.instanceId && latest.at > since && latest.at > this.clock.now() - REACH_FRESH_MS);
  }
}
