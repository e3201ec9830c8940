/**
 * A calibration curve read (what GET /api/v1/calib/curve computes) for an agent with 10 claims and for
 * one with 1,000,000, in one SQLite store. Target: the same cost. Claims are generated in SQL (resolved,
 * self-reported, spread over the ten bins) and the bin aggregates written as resolving them would.
 */
import { sql } from 'kysely';
import { CalibrationRepo } from '../src/store/repos/calibration.js';
import { CalibrationService } from '../src/calib/service.js';
import { percentile, round, startServer } from './lib.js';

const SIZES = [10, 1_000_000];
const READS = 10;

export async function calibrationCurve() {
  const svc = await startServer();
  try {
    const calib = new CalibrationService(new CalibrationRepo(svc.deps.store.db), svc.deps.clock, svc.deps.sources);
    const report: Record<string, unknown> = { reads: READS };
    for (const claims of SIZES) {
      const agent = `bench-agent-${claims}`;
      const seeded = performance.now();
      await seed(svc.deps.store.db as never, agent, claims);
      const seedS = (performance.now() - seeded) / 1000;
      const curve = await calib.curve(agent, 'binary');
      if (curve.total_claims !== claims) throw new Error(`seeded ${claims} claims, the curve counts ${curve.total_claims}`);
      const times: number[] = [];
      for (let i = 0; i < READS; i++) {
        const start = performance.now();
        await calib.curve(agent, 'binary');
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      report[`claims_${claims}`] = { p50_ms: round(percentile(times, 50)), p99_ms: round(percentile(times, 99)), seed_s: round(seedS, 1) };
    }
    const [small, large] = SIZES.map((n) => (report[`claims_${n}`] as { p50_ms: number }).p50_ms);
    return { ...report, cost_ratio_large_vs_small: round(large! / small!, 1), target_cost_ratio: 1 };
  } finally {
    await svc.close();
  }
}

/** Bulk-seeds resolved claims with the aggregates the repository keeps on write (bins and per-kind counts). */
async function seed(db: import('kysely').Kysely<unknown>, agent: string, claims: number): Promise<void> {
  await sql`
    insert into calib_claims (claim_id, agent_id, kind, predicted_p, payload_json, resolver_json, created_at, expected_resolution_at, status, outcome, outcome_source, resolved_at)
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${claims})
    select ${agent} || ':' || i, ${agent}, 'binary', (i % 10) / 10.0 + 0.05, '{}', '{}', 0, 0, 'resolved', i % 2, 'self_reported', 0 from n
  `.execute(db);
  await sql`
    insert into calib_bins (agent_id, kind, bin_index, count, success_count, sum_p, sum_sq_err)
    select agent_id, kind, cast(predicted_p * 10 as integer), count(*), sum(outcome), sum(predicted_p), sum((predicted_p - outcome) * (predicted_p - outcome))
    from calib_claims where agent_id = ${agent} group by agent_id, kind, cast(predicted_p * 10 as integer)
  `.execute(db);
  await sql`
    insert into calib_kind_counts (agent_id, kind, n, verified, self_reported)
    select agent_id, kind, count(*), 0, count(*) from calib_claims where agent_id = ${agent} group by agent_id, kind
  `.execute(db);
}
