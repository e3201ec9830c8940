import type { Kysely } from 'kysely';
import type { ConstitutionalHoneypotAttemptsTable, DB } from '../schema.js';

export type HoneypotAttemptRow = ConstitutionalHoneypotAttemptsTable;

export interface HoneypotAggregates {
  attempts: number;
  distinct_texts: number;
  canary_would_leak: number;
  blocked: number;
  flagged: number;
  first_at: number | null;
  last_at: number | null;
  patterns: { id: string; attempts: number }[];
}

export class ConstitutionalRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async recordAttempt(row: HoneypotAttemptRow, patternIds: string[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('constitutional_honeypot_attempts').values(row).execute();
      if (patternIds.length)
        await tx
          .insertInto('constitutional_honeypot_patterns')
          .values(patternIds.map((pattern_id) => ({ attempt_id: row.id, pattern_id })))
          .execute();
    });
  }

  async honeypotAggregates(): Promise<HoneypotAggregates> {
    const totals = await this.db
      .selectFrom('constitutional_honeypot_attempts')
      .select((eb) => [
        eb.fn.countAll<number>().as('attempts'),
        eb.fn.count<number>('text_hash').distinct().as('distinct_texts'),
        eb.fn.sum<number>('canary_would_leak').as('canary_would_leak'),
        eb.fn.sum<number>(eb.case().when('verdict', '=', 'block').then(1).else(0).end()).as('blocked'),
        eb.fn.sum<number>(eb.case().when('verdict', '=', 'flag').then(1).else(0).end()).as('flagged'),
        eb.fn.min<number>('created_at').as('first_at'),
        eb.fn.max<number>('created_at').as('last_at'),
      ])
      .executeTakeFirstOrThrow();
    const patterns = await this.db
      .selectFrom('constitutional_honeypot_patterns')
      .select((eb) => ['pattern_id', eb.fn.countAll<number>().as('n')])
      .groupBy('pattern_id')
      .orderBy('n', 'desc')
      .orderBy('pattern_id')
      .execute();
    const num = (v: unknown) => Number(v ?? 0);
    return {
      attempts: num(totals.attempts),
      distinct_texts: num(totals.distinct_texts),
      canary_would_leak: num(totals.canary_would_leak),
      blocked: num(totals.blocked),
      flagged: num(totals.flagged),
      first_at: totals.first_at === null ? null : num(totals.first_at),
      last_at: totals.last_at === null ? null : num(totals.last_at),
      patterns: patterns.map((p) => ({ id: p.pattern_id, attempts: num(p.n) })),
    };
  }

  async saveRun(id: string, ranAt: number, report: unknown): Promise<void> {
    await this.db
      .insertInto('constitutional_selftest_runs')
      .values({ id, ran_at: ranAt, report_json: JSON.stringify(report) })
      .execute();
  }

  async latestRun(): Promise<{ id: string; ran_at: number; report: unknown } | undefined> {
    const row = await this.db.selectFrom('constitutional_selftest_runs').selectAll().orderBy('ran_at', 'desc').limit(1).executeTakeFirst();
    return row && { id: row.id, ran_at: Number(row.ran_at), report: JSON.parse(row.report_json) };
  }
}
