import type { Kysely } from 'kysely';
import type { CalibAgentsTable, CalibBinsTable, CalibClaimsTable, DB, OutcomeSource } from '../schema.js';
import { AgentsRepo } from './agents.js';

export type ClaimRow = CalibClaimsTable;
export type BinRow = CalibBinsTable;
export type AgentRow = CalibAgentsTable;

/** Claims of one kind, and how many of their outcomes svc verified or the agent reported itself. */
export interface ClaimCounts {
  kind: string;
  n: number;
  verified: number;
  self_reported: number;
}

export type ResolveResult =
  { status: 'resolved'; claim: ClaimRow } | { status: 'not_found' } | { status: 'already_resolved'; claim: ClaimRow };

export class CalibrationRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `fn` with repositories bound to one transaction: its writes commit together, or none does when it throws. */
  transaction<T>(fn: (calib: CalibrationRepo, agents: AgentsRepo) => Promise<T>): Promise<T> {
    return this.inTransaction((trx) => fn(new CalibrationRepo(trx), new AgentsRepo(trx)));
  }

  /** Joins the transaction this repo is bound to, or opens one. */
  private inTransaction<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn);
  }

  async insertClaim(claim: ClaimRow): Promise<void> {
    await this.inTransaction(async (trx) => {
      await trx.insertInto('calib_claims').values(claim).execute();
      await countKind(trx, claim.agent_id, claim.kind, 'n');
    });
  }

  getClaim(claimId: string): Promise<ClaimRow | undefined> {
    return this.db.selectFrom('calib_claims').selectAll().where('claim_id', '=', claimId).executeTakeFirst();
  }

  /**
   * Resolves an unresolved claim and folds its outcome into the bin aggregates, in one transaction.
   * The conditional update is the claim: of two concurrent outcomes exactly one changes the row.
   */
  async resolve(
    claimId: string,
    outcome: 0 | 1,
    source: OutcomeSource,
    evidenceJson: string,
    nowMs: number,
    binIndex: (p: number) => number,
  ): Promise<ResolveResult> {
    return this.inTransaction(async (trx) => {
      const updated = await trx
        .updateTable('calib_claims')
        .set({ status: 'resolved', outcome, outcome_source: source, evidence_json: evidenceJson, resolved_at: nowMs })
        .where('claim_id', '=', claimId)
        .where('status', '=', 'unresolved')
        .executeTakeFirst();
      const claim = await trx.selectFrom('calib_claims').selectAll().where('claim_id', '=', claimId).executeTakeFirst();
      if (!claim) return { status: 'not_found' as const };
      if (Number(updated.numUpdatedRows) !== 1) return { status: 'already_resolved' as const, claim };
      await countKind(trx, claim.agent_id, claim.kind, source);
      const p = claim.predicted_p;
      await trx
        .insertInto('calib_bins')
        .values({
          agent_id: claim.agent_id,
          kind: claim.kind,
          bin_index: binIndex(p),
          count: 1,
          success_count: outcome,
          sum_p: p,
          sum_sq_err: (p - outcome) ** 2,
        })
        .onConflict((oc) =>
          oc.columns(['agent_id', 'kind', 'bin_index']).doUpdateSet((eb) => ({
            count: eb('calib_bins.count', '+', 1),
            success_count: eb('calib_bins.success_count', '+', outcome),
            sum_p: eb('calib_bins.sum_p', '+', p),
            sum_sq_err: eb('calib_bins.sum_sq_err', '+', (p - outcome) ** 2),
          })),
        )
        .execute();
      return { status: 'resolved' as const, claim: { ...claim } };
    });
  }

  bins(agentId: string, kind: string): Promise<BinRow[]> {
    return this.db.selectFrom('calib_bins').selectAll().where('agent_id', '=', agentId).where('kind', '=', kind).execute();
  }

  allBins(agentId: string): Promise<BinRow[]> {
    return this.db.selectFrom('calib_bins').selectAll().where('agent_id', '=', agentId).execute();
  }

  /** Claims per kind (every status) for an agent, with their outcomes by source, in kind order: one row per kind. */
  claimCounts(agentId: string): Promise<ClaimCounts[]> {
    return this.db
      .selectFrom('calib_kind_counts')
      .select(['kind', 'n', 'verified', 'self_reported'])
      .where('agent_id', '=', agentId)
      .orderBy('kind')
      .execute();
  }

  /** Unresolved claims whose resolution time has come. */
  due(nowS: number, limit = 200): Promise<ClaimRow[]> {
    return this.db
      .selectFrom('calib_claims')
      .selectAll()
      .where('status', '=', 'unresolved')
      .where('expected_resolution_at', '<=', nowS)
      .orderBy('expected_resolution_at')
      .limit(limit)
      .execute();
  }

  async expire(claimId: string): Promise<void> {
    await this.db
      .updateTable('calib_claims')
      .set({ status: 'expired' })
      .where('claim_id', '=', claimId)
      .where('status', '=', 'unresolved')
      .execute();
  }

  async upsertAgent(agent: AgentRow): Promise<void> {
    await this.db
      .insertInto('calib_agents')
      .values(agent)
      .onConflict((oc) => oc.column('agent_id').doUpdateSet({ name: agent.name, homepage: agent.homepage, public_key: agent.public_key }))
      .execute();
  }

  /** Registered agents with their claim counts, oldest first; `agentId` narrows to one. */
  async agents(limit: number, offset: number, agentId?: string) {
    const rows = await this.db
      .selectFrom('calib_agents as a')
      .leftJoin('calib_claims as c', 'c.agent_id', 'a.agent_id')
      .select([
        'a.agent_id',
        'a.name',
        'a.homepage',
        'a.public_key',
        'a.registered_at',
        (eb) => eb.fn.count<number>('c.claim_id').as('claims'),
      ])
      .$if(agentId !== undefined, (qb) => qb.where('a.agent_id', '=', agentId!))
      .groupBy(['a.agent_id', 'a.name', 'a.homepage', 'a.public_key', 'a.registered_at'])
      .orderBy('a.registered_at')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...r, claims: Number(r.claims) }));
  }

  async counts(): Promise<{ agents: number; claims: number; resolved: number }> {
    const [agents, claims, resolved] = await Promise.all([
      this.db
        .selectFrom('calib_agents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
      this.db
        .selectFrom('calib_claims')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
      this.db
        .selectFrom('calib_claims')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'resolved')
        .executeTakeFirst(),
    ]);
    return { agents: Number(agents?.n ?? 0), claims: Number(claims?.n ?? 0), resolved: Number(resolved?.n ?? 0) };
  }

  /** Every (agent, kind) with at least `minResolved` resolved claims, with its bins: the leaderboard's input. */
  async binsOfActiveAgents(minResolved: number): Promise<BinRow[]> {
    const eligible = this.db
      .selectFrom('calib_bins')
      .select(['agent_id', 'kind'])
      .groupBy(['agent_id', 'kind'])
      .having((eb) => eb.fn.sum<number>('count'), '>=', minResolved);
    return this.db
      .selectFrom('calib_bins as b')
      .innerJoin(eligible.as('e'), (join) => join.onRef('e.agent_id', '=', 'b.agent_id').onRef('e.kind', '=', 'b.kind'))
      .selectAll('b')
      .execute();
  }
}

/** Adds one to a (agent, kind) counter: a new claim (`n`) or an outcome by its source. */
async function countKind(db: Kysely<DB>, agentId: string, kind: string, column: 'n' | OutcomeSource): Promise<void> {
  await db
    .insertInto('calib_kind_counts')
    .values({
      agent_id: agentId,
      kind,
      n: column === 'n' ? 1 : 0,
      verified: 0,
      self_reported: 0,
      ...(column === 'n' ? {} : { [column]: 1 }),
    })
    .onConflict((oc) => oc.columns(['agent_id', 'kind']).doUpdateSet((eb) => ({ [column]: eb(`calib_kind_counts.${column}`, '+', 1) })))
    .execute();
}
