import { setTimeout as sleep } from 'node:timers/promises';
import type { Deps } from '../deps.js';
import type { InstanceRecord } from '../store/repos/cluster.js';
import { HEARTBEAT_MS } from './cluster.js';
import { STARTUP_EXIT, StartupError, orExitOnStartupError } from './startup-errors.js';

/** What joining reads: `previousKeys` listing the cluster's current key is what lets a new key take over. */
export type JoinDeps = Pick<Deps, 'store' | 'repos' | 'clock' | 'cluster' | 'signingKey' | 'previousKeys' | 'redis'>;

/** What joining did to the cluster's key record, for the start-up log. */
export type KeyEvent = { kind: 'registered' | 'kept'; kid: string } | { kind: 'rotated'; from: string; kid: string };

/** A starting instance watches the others' heartbeats this long (two beats) before it takes a silent row for a dead instance's. */
const waitForBeats = () => sleep(HEARTBEAT_MS * 2);
const ROTATION_DOC = 'docs/operations.md, "Rotating the signing key"';
const when = (ms: number) => new Date(ms).toISOString();

/**
 * Refuses a start that would split the cluster: a signing key other than the cluster's (unless it takes over by the
 * documented rotation), and, on a shared Postgres, one instance with Redis and another without (session events of the
 * one never reach the other's watchers). Starts this instance's heartbeat; stops it again when refusing.
 */
export async function joinCluster(deps: JoinDeps, watchHeartbeats: () => Promise<void> = waitForBeats): Promise<KeyEvent> {
  const event = await claimKey(deps);
  await deps.cluster.start();
  try {
    if (deps.store.engine === 'postgres') await checkRedisAgreement(deps, watchHeartbeats);
  } catch (error) {
    await deps.cluster.stop();
    throw error;
  }
  return event;
}

/** Registers this key when the cluster has none, keeps it when it is the cluster's, or rotates to it from the listed current key. */
async function claimKey({ repos, clock, signingKey, previousKeys }: JoinDeps): Promise<KeyEvent> {
  const repo = repos.cluster;
  const { kid, spki } = signingKey;
  // Two instances racing through the same step: the loser re-reads what the winner wrote.
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await repo.currentKey();
    if (!current) {
      if (await repo.register(kid, spki, clock.now())) return { kind: 'registered', kid };
      continue;
    }
    if (current.kid === kid) return { kind: 'kept', kid };
    const retiredAt = (await repo.key(kid))?.retired_at;
    if (retiredAt)
      throw keyRefusal(
        `this key (kid ${kid}) was retired by a rotation at ${when(retiredAt)}; the cluster signs with kid ${current.kid}: give this instance the cluster's key`,
      );
    if (!previousKeys.some((k) => k.kid === current.kid))
      throw keyRefusal(
        `this key (kid ${kid}) is not the cluster's (kid ${current.kid}, since ${when(current.registered_at)}): give every instance the same key, ` +
          `or rotate to this one by listing the cluster's key in SVC_SIGNING_KEYS_PREVIOUS (${ROTATION_DOC})`,
      );
    if (await repo.rotate(current.kid, { kid, spki }, clock.now())) return { kind: 'rotated', from: current.kid, kid };
  }
  throw keyRefusal('the cluster’s key kept changing while this instance started: start it again');
}

/** The start-up log line: which key this instance signs with and what joining did to the cluster's record. */
export function keyEventLine(event: KeyEvent): string {
  if (event.kind === 'rotated') return `signing key rotated: the cluster now signs with kid ${event.kid} (was ${event.from})`;
  return `signing with kid ${event.kid}${event.kind === 'registered' ? ', registered as the cluster’s key' : ', the cluster’s key'}`;
}

const keyRefusal = (problem: string) => new StartupError('SVC_SIGNING_KEY', STARTUP_EXIT.clusterKey, problem);

/**
 * The live instances that disagree with this one about Redis. A row that stops beating while we watch it was left by
 * an instance that died without a clean stop (kill -9): it does not count, so a restart after a crash is not refused.
 */
async function checkRedisAgreement({ cluster: membership, redis }: JoinDeps, watchHeartbeats: () => Promise<void>): Promise<void> {
  const hasRedis = redis !== undefined;
  const disagrees = (i: InstanceRecord) => i.id !== membership.id && (i.redis === 1) !== hasRedis;
  const suspects = (await membership.live()).filter(disagrees);
  if (suspects.length === 0) return;
  await watchHeartbeats();
  const now = new Map((await membership.live()).map((i) => [i.id, i.beats]));
  const alive = suspects.filter((s) => (now.get(s.id) ?? 0) > s.beats);
  if (alive.length === 0) return;
  const named = alive.map((i) => `${i.host} pid ${i.pid}`).join(', ');
  throw new StartupError(
    'REDIS_URL',
    STARTUP_EXIT.clusterRedis,
    hasRedis
      ? `${alive.length} live instance(s) on this database run without REDIS_URL (${named}): their session events never reach this instance's watchers; give every instance the same REDIS_URL`
      : `unset, but ${alive.length} other live instance(s) share this database (${named}): session events would not reach the others' watchers; set REDIS_URL to the cluster's Redis`,
  );
}

/** joinCluster for the entry points: a refusal is one line on stderr and its exit code. */
export const joinClusterOrExit = (deps: JoinDeps & Pick<Deps, 'config'>): Promise<KeyEvent> =>
  orExitOnStartupError(deps.config, () => joinCluster(deps));
