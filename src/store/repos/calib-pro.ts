import type { Kysely } from 'kysely';
import type { CalibProAgentsTable, CalibProClaimsTable, CalibWebhookDeliveriesTable, DB, OutcomeSource } from '../schema.js';

export type ProAgentRow = CalibProAgentsTable;
export type DeliveryRow = CalibWebhookDeliveriesTable;

/** A resolved outcome, as history windows, drift checks and verified-only cards read them. */
export interface ResolvedOutcome {
  kind: string;
  predicted_p: number;
  outcome: 0 | 1;
  outcome_source: OutcomeSource;
  resolved_at: number;
}

export interface AlertSettings {
  webhook_url: string | null;
  ece_threshold: number | null;
  min_resolved: number | null;
}

export class CalibProRepo {
  constructor(private readonly db: Kysely<DB>) {}

  proAgent(agentId: string): Promise<ProAgentRow | undefined> {
    return this.db.selectFrom('calib_pro_agents').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
  }

  /** Records a paid claim and moves the agent's pro_until to `proUntil` (claims are paid in clock order, so it only grows). */
  async recordPaidClaim(row: CalibProClaimsTable, proUntil: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('calib_pro_claims').values(row).execute();
      await trx
        .insertInto('calib_pro_agents')
        .values({
          agent_id: row.agent_id,
          pro_until: proUntil,
          paid_claims: 1,
          webhook_url: null,
          ece_threshold: null,
          min_resolved: null,
          updated_at: row.paid_at,
        })
        .onConflict((oc) =>
          oc.column('agent_id').doUpdateSet((eb) => ({
            pro_until: proUntil,
            paid_claims: eb('calib_pro_agents.paid_claims', '+', 1),
            updated_at: row.paid_at,
          })),
        )
        .execute();
    });
  }

  /** The agent whose key hashes to `keyHash`, when it is on calib-pro at `nowMs`. */
  async proAgentByKeyHash(keyHash: string, nowMs: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('agent_credentials as c')
      .innerJoin('calib_pro_agents as p', 'p.agent_id', 'c.agent_id')
      .select('c.agent_id')
      .where('c.key_hash', '=', keyHash)
      .where('p.pro_until', '>', nowMs)
      .executeTakeFirst();
    return row?.agent_id;
  }

  async setAlerts(agentId: string, settings: AlertSettings, nowMs: number): Promise<void> {
    await this.db
      .updateTable('calib_pro_agents')
      .set({ ...settings, updated_at: nowMs })
      .where('agent_id', '=', agentId)
      .execute();
  }

  /** Pro agents (still pro at `nowMs`) with a webhook and a threshold set. */
  alertingAgents(nowMs: number): Promise<ProAgentRow[]> {
    return this.db
      .selectFrom('calib_pro_agents')
      .selectAll()
      .where('pro_until', '>', nowMs)
      .where('webhook_url', 'is not', null)
      .where('ece_threshold', 'is not', null)
      .execute();
  }

  /** Resolved outcomes of an agent, resolved after `sinceMs`, optionally of one kind or one source. */
  async resolvedOutcomes(
    agentId: string,
    filter: { sinceMs?: number; kind?: string; source?: OutcomeSource } = {},
  ): Promise<ResolvedOutcome[]> {
    const rows = await this.db
      .selectFrom('calib_claims')
      .select(['kind', 'predicted_p', 'outcome', 'outcome_source', 'resolved_at'])
      .where('agent_id', '=', agentId)
      .where('status', '=', 'resolved')
      .$if(filter.sinceMs !== undefined, (qb) => qb.where('resolved_at', '>', filter.sinceMs!))
      .$if(filter.kind !== undefined, (qb) => qb.where('kind', '=', filter.kind!))
      .$if(filter.source !== undefined, (qb) => qb.where('outcome_source', '=', filter.source!))
      .orderBy('resolved_at')
      .execute();
    return rows.map((r) => ({
      kind: r.kind,
      predicted_p: r.predicted_p,
      outcome: r.outcome as 0 | 1,
      outcome_source: r.outcome_source!,
      resolved_at: Number(r.resolved_at),
    }));
  }

  /** Every claim of an agent, oldest first, with how it was paid when it was a calib-pro claim. */
  claimsForExport(agentId: string) {
    return this.db
      .selectFrom('calib_claims as c')
      .leftJoin('calib_pro_claims as p', 'p.claim_id', 'c.claim_id')
      .selectAll('c')
      .select(['p.method as paid_with'])
      .where('c.agent_id', '=', agentId)
      .orderBy('c.created_at')
      .orderBy('c.claim_id')
      .execute();
  }

  driftState(agentId: string, kind: string) {
    return this.db.selectFrom('calib_drift_state').selectAll().where('agent_id', '=', agentId).where('kind', '=', kind).executeTakeFirst();
  }

  driftStates(agentId: string) {
    return this.db.selectFrom('calib_drift_state').selectAll().where('agent_id', '=', agentId).orderBy('kind').execute();
  }

  async saveDriftState(agentId: string, kind: string, drifting: boolean, ece: number | null, nowMs: number): Promise<void> {
    const values = { drifting: drifting ? 1 : 0, ece, checked_at: nowMs };
    await this.db
      .insertInto('calib_drift_state')
      .values({ agent_id: agentId, kind, ...values })
      .onConflict((oc) => oc.columns(['agent_id', 'kind']).doUpdateSet(values))
      .execute();
  }

  async enqueue(row: DeliveryRow): Promise<void> {
    await this.db.insertInto('calib_webhook_deliveries').values(row).execute();
  }

  dueDeliveries(nowMs: number, limit = 100): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('calib_webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', nowMs)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  async updateDelivery(
    id: string,
    change: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'delivered_at'>>,
  ): Promise<void> {
    await this.db.updateTable('calib_webhook_deliveries').set(change).where('id', '=', id).execute();
  }

  deliveries(agentId: string, limit = 50): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('calib_webhook_deliveries')
      .selectAll()
      .where('agent_id', '=', agentId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }
}
