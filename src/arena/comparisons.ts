import type { ArenaRepo } from '../store/repos/arena.js';
import type { ModeFilter } from './track-record.js';
import type { ArenaService } from './service.js';
import {
  COMPARED_ASSETS,
  COMPARED_STRATEGIES,
  COMPARE_ID_FORMULA,
  METRIC_RULES,
  compareId,
  rankCombinations,
  windowStart,
  type CompareWindow,
} from './compare.js';

const HOUR_MS = 3600_000;
const DAY_MS = 86_400_000;

/** A GET compares as of the start of the current hour, so one hour's requests share one signed record. */
export const hourlyAsOf = (nowMs: number): number => Math.floor(nowMs / HOUR_MS) * HOUR_MS;
/** The scheduler's daily comparisons are as of 00:00 UTC. */
export const dailyAsOf = (nowMs: number): number => Math.floor(nowMs / DAY_MS) * DAY_MS;

/**
 * Signed comparative attestations: the 15 combinations ranked over a window, as of an instant, kept
 * with the trade attestations so `/api/v1/arena/attestation/{id}` serves them later unchanged.
 */
export class Comparisons {
  constructor(
    private readonly arena: ArenaService,
    private readonly repo: ArenaRepo,
  ) {}

  /** The comparison for (window, mode, asOfTs): the stored one when it was issued before, else issued now. */
  async issue(window: CompareWindow, mode: ModeFilter, asOfTs: number): Promise<Record<string, unknown>> {
    const id = compareId(window, mode, asOfTs);
    const stored = await this.repo.attestation(id);
    if (stored) return stored;
    const fromTs = windowStart(window, asOfTs);
    const trades = await this.repo.closedTrades(COMPARED_STRATEGIES, fromTs, asOfTs);
    await this.arena.attest(id, asOfTs, {
      event: 'compare',
      window,
      mode,
      as_of_ts: asOfTs,
      from_ts: Number.isFinite(fromTs) ? fromTs : null,
      strategies: COMPARED_STRATEGIES,
      assets: COMPARED_ASSETS,
      ranking: rankCombinations(trades, window, mode, asOfTs),
      metric_rules: METRIC_RULES,
      attestation_id_formula: COMPARE_ID_FORMULA,
    });
    // Read back: of two concurrent first requests the stored record wins, so both answer the same bytes.
    return (await this.repo.attestation(id))!;
  }
}
