import type { Clock } from '../../core/clock.js';
import type { CalibProRepo, ProAgentRow } from '../../store/repos/calib-pro.js';
import { eventId, type Webhooks } from './webhooks.js';
import { windowFigures } from './service.js';

export const DRIFT_WINDOW_DAYS = 30;
export const DEFAULT_MIN_RESOLVED = 30;
const DAY_MS = 86_400_000;

export const DRIFT_RULES =
  `Every 5 minutes svc computes, for each kind of each calib-pro agent with alerts set, the ECE over the outcomes resolved in the last ${DRIFT_WINDOW_DAYS} days ` +
  `(verified and self-reported alike). A kind with fewer than min_resolved (default ${DEFAULT_MIN_RESOLVED}) of them is not judged. ` +
  'It drifts while that ECE is strictly above ece_threshold: the check that first sees it drifting sends a `calib.drift` event, the one that first sees it back at or below sends `calib.recovered`; ' +
  'nothing is sent while the state holds. Event body: {id, type, agent_id, kind, window: "30d", ece, previous_ece, threshold, resolved, detected_at (Unix s)}.';

/** Watches the calibration of calib-pro agents and queues a webhook when a kind crosses its ECE threshold. */
export class DriftWatch {
  constructor(
    private readonly repo: CalibProRepo,
    private readonly webhooks: Webhooks,
    private readonly clock: Clock,
  ) {}

  async check(): Promise<number> {
    let sent = 0;
    for (const agent of await this.repo.alertingAgents(this.clock.now())) sent += await this.checkAgent(agent);
    return sent;
  }

  private async checkAgent(agent: ProAgentRow): Promise<number> {
    const now = this.clock.now();
    const outcomes = await this.repo.resolvedOutcomes(agent.agent_id, { sinceMs: now - DRIFT_WINDOW_DAYS * DAY_MS });
    let sent = 0;
    for (const kind of new Set(outcomes.map((o) => o.kind))) {
      const figures = windowFigures(outcomes.filter((o) => o.kind === kind));
      if (figures.resolved < (agent.min_resolved ?? DEFAULT_MIN_RESOLVED) || figures.ece === null) continue;
      const drifting = figures.ece > agent.ece_threshold!;
      const previous = await this.repo.driftState(agent.agent_id, kind);
      if (drifting !== Boolean(previous?.drifting) && (drifting || previous)) {
        await this.webhooks.enqueue(agent.agent_id, agent.webhook_url!, {
          id: eventId(),
          type: drifting ? 'calib.drift' : 'calib.recovered',
          agent_id: agent.agent_id,
          kind,
          window: `${DRIFT_WINDOW_DAYS}d`,
          ece: figures.ece,
          previous_ece: previous?.ece ?? null,
          threshold: agent.ece_threshold,
          resolved: figures.resolved,
          detected_at: Math.floor(now / 1000),
        });
        sent++;
      }
      await this.repo.saveDriftState(agent.agent_id, kind, drifting, figures.ece, now);
    }
    return sent;
  }
}
