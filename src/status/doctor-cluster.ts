import type { Clock } from '../core/clock.js';
import { LIVE_FOR_MS } from '../lifecycle/cluster.js';
import type { ClusterRepo, InstanceRecord } from '../store/repos/cluster.js';

/** One deployment check of the doctor: whether it holds, and what an operator reads either way. */
export interface DeploymentCheck {
  name: string;
  ok: boolean;
  message: string;
}

const named = (i: InstanceRecord) => `${i.host} pid ${i.pid} (kid ${i.kid})`;

/**
 * Every live instance on the database signs with the cluster's key: one that does not issues receipts the others
 * answer `unknown_kid` for. During a rotation this fails until every instance runs the new key, which is the point.
 */
export async function sameKeyCheck(repo: ClusterRepo, clock: Clock): Promise<DeploymentCheck> {
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
