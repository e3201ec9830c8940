import type { Deps } from '../deps.js';
import { PeerReach } from './peer-reach.js';

export type Check = 'ok' | 'timeout' | 'unreachable';

/** ok when `probe` resolves truthy within `deadlineMs`. */
export async function within(deadlineMs: number, probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)));
  const answered = probe().then(
    (value): Check => (value ? 'ok' : 'unreachable'),
    (error: Error): Check => (/timed out/i.test(error?.message) ? 'timeout' : 'unreachable'),
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The database as a probe sees it; `outage` only for a shared database that did not answer (peer-reach.ts). */
export interface StoreState {
  reached: Check;
  outage?: 'shared' | 'this_instance';
}

/**
 * The probes' check of the database: a ping bounded by SVC_READY_TIMEOUT_MS (a network black hole would otherwise hold
 * a probe for a whole query timeout) and, on Postgres, whose outage a failure is. SQLite's file is the instance's own.
 */
export function storeCheck(deps: Pick<Deps, 'store' | 'cache' | 'cluster' | 'clock' | 'config'>): () => Promise<StoreState> {
  const peers = new PeerReach(deps.cache, deps.cluster.id, deps.clock);
  const shared = deps.store.engine === 'postgres';
  return async () => {
    const startedAt = deps.clock.now();
    // Read alongside the ping, so a failed probe waits for the slower of the two (the Redis deadline is the shorter),
    // not for their sum.
    const latest = shared ? peers.latest() : undefined;
    const reached = await within(deps.config.readyTimeoutMs, () => deps.store.ping());
    if (!shared) return { reached };
    if (reached === 'ok') {
      await peers.reached();
      return { reached };
    }
    return { reached, outage: peers.reachedByOthers(startedAt, await latest) ? 'this_instance' : 'shared' };
  };
}
