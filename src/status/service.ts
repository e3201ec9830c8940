import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import { upstreamOrder, type SourceDescriptor } from '../sources/define.js';
import type { Registry } from '../sources/registry.js';
import type { SourceResult, SourceSuccess } from '../sources/result.js';
import type { UpstreamClient } from '../upstream/client.js';
import { mergeSnapshots, WINDOW_MINUTES, type HealthSnapshot, type TypeOutcome, type UpstreamHealth } from '../upstream/health.js';
import { HOSTS, type HostName } from '../upstream/hosts.js';
import { SharedHealth } from './shared.js';
import { corroborationField, corroborationSeen } from './corroboration.js';
import type { ClusterMembership } from '../lifecycle/cluster.js';
import { TYPE_STATES, hostStatus, typeStatus, type Availability, type HostStatus, type TypeState, type TypeStatus } from './view.js';

/** How often an instance shares its figures, and how long a reader reuses the other instances' figures. */
const FLUSH_EVERY_MS = 5_000;
const REMOTE_TTL_MS = 5_000;
/** How long a report waits for the other instances' figures before it answers with those known last. */
const REMOTE_WAIT_MS = 1_000;

export interface StatusReport {
  /** Unix s. */
  generated_at: number;
  window_s: number;
  /** Live instances on this database (fresh heartbeat); at least this one. */
  instances: number;
  summary: Record<TypeState, number>;
  types: TypeStatus[];
  upstreams: HostStatus[];
}

export interface StatusDeps {
  registry: Registry;
  config: Config;
  upstream: UpstreamClient;
  health: UpstreamHealth;
  clock: Clock;
  redis?: Redis;
  cluster: Pick<ClusterMembership, 'live'>;
}

interface Remote {
  at: number;
  snapshots: HealthSnapshot[];
  /** Live instances; undefined when the database did not say. */
  instances?: number;
}

/** A fresh result as a health record: who was tried first, who answered, whether the data was partial. */
export function outcomeOf(descriptor: SourceDescriptor, result: SourceResult): Omit<TypeOutcome, 'at'> {
  const primary = primaryOf(descriptor, result.q);
  if (!result.ok) return { ...(primary ? { primary } : {}), error: result.error };
  const corroboration = corroborationSeen(result);
  return {
    ...(primary ? { primary } : {}),
    source: result.source,
    ...(isPartial(result) ? { partial: true } : {}),
    ...(corroboration ? { corroboration } : {}),
  };
}

function primaryOf(descriptor: SourceDescriptor, key: string): string | undefined {
  let first: string | undefined;
  try {
    first = upstreamOrder(descriptor, descriptor.parseQ(key))[0]?.[0];
  } catch {
    first = Object.keys(descriptor.upstreams)[0];
  }
  return first ?? (descriptor.curated ? 'curated' : undefined);
}

/** Bad items dropped from a long list (`skipped_items`), or rows that say they are partial. */
function isPartial(result: SourceSuccess): boolean {
  const skipped = (value: unknown) => typeof value === 'number' && value > 0;
  return (
    skipped((result as { skipped_items?: unknown }).skipped_items) ||
    result.rows.some((r) => skipped(r.skipped_items) || r.partial === true)
  );
}

/**
 * Upstream health for the catalog, `/api/v1/status`, the page and the doctor: this instance's live figures,
 * merged with the other instances' shared ones when Redis is configured. Computed views are reused until a
 * new call is recorded or the shared figures are re-read, so a busy catalog costs no recomputation.
 */
export class StatusService {
  private readonly shared?: SharedHealth;
  private remote?: Remote;
  private reading?: Promise<Remote>;
  private memo?: { key: string; report: StatusReport };
  private timer?: NodeJS.Timeout;

  constructor(private readonly deps: StatusDeps) {
    if (deps.redis) this.shared = new SharedHealth(deps.redis, randomUUID(), deps.clock);
  }

  start(): void {
    if (!this.shared || this.timer) return;
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Shares this instance's figures (a no-op without Redis). */
  async flush(): Promise<void> {
    await this.shared?.publish(this.localSnapshot());
  }

  async report(): Promise<StatusReport> {
    const remote = await this.remoteSnapshots();
    const key = `${this.deps.health.version}:${remote.at}`;
    if (this.memo?.key === key) return this.memo.report;
    const merged = mergeSnapshots([this.localSnapshot(), ...remote.snapshots]);
    const types = this.deps.registry
      .all()
      .map((d) => ({ ...typeStatus(d, merged, this.deps.config), ...corroborationField(d, merged, this.deps.config) }));
    const summary = Object.fromEntries(TYPE_STATES.map((s) => [s, types.filter((t) => t.state === s).length])) as Record<TypeState, number>;
    const report: StatusReport = {
      generated_at: Math.floor(this.deps.clock.now() / 1000),
      window_s: WINDOW_MINUTES * 60,
      instances: Math.max(1, remote.instances ?? 1 + remote.snapshots.length),
      summary,
      types,
      upstreams: Object.keys(HOSTS).map((name) => hostStatus(name, merged.hosts[name], this.deps.config)),
    };
    this.memo = { key, report };
    return report;
  }

  /** Each type's availability (the catalog's field), by type. */
  async availability(): Promise<Map<string, Availability>> {
    const report = await this.report();
    return new Map(
      report.types.map(({ state, reason, needs_key, signup_url, terms, type }) => [type, { state, reason, needs_key, signup_url, terms }]),
    );
  }

  /** Recorded figures plus the circuit breakers' current states. */
  private localSnapshot(): HealthSnapshot {
    const snapshot = this.deps.health.snapshot();
    for (const name of Object.keys(HOSTS) as HostName[]) {
      const circuit = this.deps.upstream.circuitState(name);
      if (circuit !== 'closed') (snapshot.hosts[name] ??= { minutes: {} }).circuit = circuit;
    }
    return snapshot;
  }

  /**
   * The other instances' figures and how many instances are live, re-read at most every REMOTE_TTL_MS by one read at a
   * time. The catalog and /status need no database: when it does not answer within REMOTE_WAIT_MS (a black hole holds
   * a query until SVC_DB_QUERY_TIMEOUT_MS), the figures known last serve, and the read goes on in the background.
   */
  private async remoteSnapshots(): Promise<Remote> {
    const now = this.deps.clock.now();
    if (this.remote && now - this.remote.at < REMOTE_TTL_MS) return this.remote;
    this.reading ??= this.readRemote(now).finally(() => (this.reading = undefined));
    let timer: NodeJS.Timeout | undefined;
    const known = this.remote ?? { at: now, snapshots: [], instances: undefined };
    const waited = new Promise<Remote>((resolve) => (timer = setTimeout(() => resolve(known), REMOTE_WAIT_MS)));
    return Promise.race([this.reading, waited]).finally(() => clearTimeout(timer));
  }

  private async readRemote(now: number): Promise<Remote> {
    const [snapshots, live] = await Promise.all([this.shared?.others() ?? [], this.deps.cluster.live().catch(() => undefined)]);
    this.remote = { at: now, snapshots, instances: live?.length };
    return this.remote;
  }
}
