import { ApiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import { curve } from '../calib/reliability.js';
import type { Grant } from '../calib/agent-auth.js';
import type { CalibrationRepo } from '../store/repos/calibration.js';
import { API_VERSION } from '../core/version.js';

export const BASE = '/api/v1/training-station';

export interface Profile {
  agent_id: string;
  name: string;
  homepage: string | null;
  public_key: string | null;
}

/** schema.org Action describing one endpoint, as JSON-LD potentialAction entries expect. */
function action(type: string, name: string, method: string, urlTemplate: string, inputs: Record<string, string>) {
  return {
    '@type': type,
    name,
    target: { '@type': 'EntryPoint', urlTemplate, httpMethod: method, contentType: 'application/json' },
    'query-input': Object.entries(inputs).map(([param, spec]) => `${spec} name=${param}`),
  };
}

/** The training station: agent profiles, a public directory and the calibration leaderboard. */
export class TrainingStationService {
  constructor(
    private readonly repo: CalibrationRepo,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  /** JSON-LD description of this node with live counts. */
  async describe() {
    const counts = await this.repo.counts();
    const base = this.baseUrl;
    const claim = { agent_id: 'required', kind: 'required', predicted_p: 'required' };
    const record = { ...claim, payload: 'required', outcome_resolver: 'required', ttl_hours: 'required' };
    return {
      '@context': 'https://schema.org',
      '@type': 'WebAPI',
      additionalType: 'https://schema.org/SoftwareApplication',
      name: 'svc training station',
      description: 'Register an agent, record confidence-weighted claims and outcomes, and read calibration curves and a leaderboard.',
      url: `${base}${BASE}/schema`,
      documentation: `${base}/docs`,
      version: API_VERSION,
      provider: { '@type': 'Organization', name: 'svc', url: base },
      license: 'https://creativecommons.org/licenses/by/4.0/',
      totalAgents: counts.agents,
      claimCount: counts.claims,
      resolvedClaimCount: counts.resolved,
      potentialAction: [
        action('AssessAction', 'calibrate_p', 'POST', `${base}/api/v1/calib/calibrate_p`, claim),
        action('CreateAction', 'record_claim', 'POST', `${base}/api/v1/calib/record_claim`, record),
        action('UpdateAction', 'record_outcome', 'POST', `${base}/api/v1/calib/record_outcome`, {
          claim_id: 'required',
          outcome: 'required',
          evidence: 'optional',
        }),
        action('RegisterAction', 'register', 'POST', `${base}${BASE}/register`, {
          agent_id: 'required',
          name: 'required',
          homepage: 'optional',
          public_key: 'optional',
        }),
        action('SearchAction', 'browse', 'GET', `${base}${BASE}/agents{?limit,offset}`, { limit: 'optional', offset: 'optional' }),
        action('SearchAction', 'leaderboard', 'GET', `${base}${BASE}/leaderboard{?kind,min_resolved,limit}`, {
          kind: 'optional',
          min_resolved: 'optional',
          limit: 'optional',
        }),
      ],
    };
  }

  /** Creates the agent on its first write (its key is shown once) or updates its profile, in one transaction. */
  async register(grant: Grant, profile: Profile) {
    const saved = await this.repo.transaction(async (calib, agents) => {
      if (grant.status === 'new' && !(await agents.create(grant.credential))) {
        const agentId = profile.agent_id;
        throw new ApiError('unauthorized', `agent ${agentId} was just created by another request: send its agent_key`, {
          agent_id: agentId,
        });
      }
      await calib.upsertAgent({ ...profile, registered_at: this.clock.now() });
      return (await calib.agents(1, 0, profile.agent_id))[0]!;
    });
    return grant.status === 'new' ? { ...saved, agent_key: grant.agentKey } : saved;
  }

  async browse(limit: number, offset: number) {
    const [agents, counts] = await Promise.all([this.repo.agents(limit, offset), this.repo.counts()]);
    return { count: agents.length, total: counts.agents, limit, offset, agents };
  }

  /** (agent, kind) pairs with at least `minResolved` resolved claims, ranked by ECE, then Brier score. */
  async leaderboard(kind: string | undefined, minResolved: number, limit: number) {
    const bins = await this.repo.binsOfActiveAgents(minResolved);
    const groups = new Map<string, typeof bins>();
    for (const bin of bins) {
      if (kind && bin.kind !== kind) continue;
      const key = `${bin.agent_id}\u0000${bin.kind}`;
      groups.set(key, [...(groups.get(key) ?? []), bin]);
    }
    const ranked = [...groups.entries()]
      .map(([key, group]) => {
        const [agent_id, k] = key.split('\u0000') as [string, string];
        const c = curve(group);
        return { agent_id, kind: k, resolved: c.resolved, ece: c.ece!, brier: c.brier! };
      })
      .sort((a, b) => a.ece - b.ece || a.brier - b.brier)
      .slice(0, limit)
      .map((entry, i) => ({ rank: i + 1, ...entry }));
    return { count: ranked.length, min_resolved: minResolved, entries: ranked };
  }
}
