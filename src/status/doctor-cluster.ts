import { Kysely } from 'kysely';
import { systemClock, type Clock } from '../core/clock.js';
import { LIVE_FOR_MS } from '../lifecycle/cluster.js';
import { postgresDialect } from '../store/db.js';
import { ClusterRepo, type InstanceRecord } from '../store/repos/cluster.js';
import type { DB } from '../store/schema.js';
import type { DeploymentCheck } from './doctor-deployment.js';

/** Whether the live instances agree on the key, and what an operator reads either way. */
export interface KeyAgreement {
  name: string;
  ok: boolean;
  message: string;
}

const named = (i: InstanceRecord) => `${i.host} pid ${i.pid} (kid ${i.kid})`;

/**
 * Every live instance on the database signs with the cluster's key: one that does not issues receipts the others
 * answer `unknown_kid` for. During a rotation this fails until every instance runs the new key, which is the point.
 */
export async function sameKeyCheck(repo: ClusterRepo, clock: Clock): Promise<KeyAgreement> {
  const [current, live] = await Promise.all([repo.currentKey(), repo.beatingSince(clock.now() - LIVE_FOR_MS)]);
  const clusterKid = current?.kid ?? live[0]?.kid;
  const others = live.filter((i) => i.kid !== clusterKid);
  const name = 'signing key';
  if (others.length > 0)
    return {
      name,
      ok: false,
      message:
        `${others.length} of ${live.length} live instances sign with another key than the cluster's (kid ${clusterKid}): ${others.map(named).join(', ')}; ` +
        'give them the cluster’s SVC_SIGNING_KEY, or finish the rotation (docs/operations.md)',
    };
  if (!clusterKid) return { name, ok: true, message: 'no instance has registered a signing key yet' };
  return { name, ok: true, message: `${live.length} live instance(s), every one signing with the cluster's key (kid ${clusterKid})` };
}

/**
 * The doctor's check of the cluster's key, read from the database the instances share. It reads only: the doctor
 * never migrates, so a database svc has not started on yet has no key tables and is reported as such.
 */
export const clusterKeyCheck = (clock: Clock = systemClock): DeploymentCheck => ({
  name: 'signing key',
  run: async (config) => {
    if (!config.databaseUrl) return { level: 'ok', detail: 'SQLite: one instance, no cluster to agree with' };
    const db = new Kysely<DB>({ dialect: await postgresDialect(config.databaseUrl) });
    try {
      const { ok, message } = await sameKeyCheck(new ClusterRepo(db), clock);
      return ok ? { level: 'ok', detail: message } : { level: 'fail', detail: message };
    } catch (error) {
      const detail = `cannot read the cluster's key (${(error as Error).message.split('\n')[0]})`;
      return { level: 'warn', detail, fix: 'start svc once on this database so that it records its key' };
    } finally {
      await db.destroy();
    }
  },
});
