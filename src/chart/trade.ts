import type { ArenaService } from '../arena/service.js';
import { attestationPath } from '../arena/service.js';
import { attestationId, attestationRef } from '../arena/attestations.js';
import { CHART_CONSENSUS, MAX_HOLD_CANDLES, ASSETS, type Asset } from '../arena/paper-trader.js';
import { binanceCandles } from '../upstream/binance-candles.js';
import type { CalibrationService } from '../calib/service.js';
import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { HostHttp } from '../upstream/client.js';
import type { ModelRef } from '../models/index.js';
import type { ConsensusResult, PaperTradeResult, Verdict } from './schemas.js';

/** The calibration kind of every model's chart claim: "the chart-consensus paper trade closes with a profit". */
export const CHART_KIND = 'chart-trade';
export const chartAgentId = (modelId: string) => `chart:${modelId}`;

const HOUR_S = 3600;
const UPSTREAM_DEADLINE_MS = 10_000;
/** Claims stay open through max_hold, the wait for the last candle to close and a watch period. */
const TTL_HOURS = MAX_HOLD_CANDLES + 3;

export const TRADE_RULE =
  `A buy consensus opens a long paper trade in the arena as strategy ${CHART_CONSENSUS} (agent arena:${CHART_CONSENSUS}:<asset>, mode live): entry at the live price, the close of the ` +
  `latest Binance 1-minute kline of <asset>USDT, at the time of the analysis; exits on the hourly Binance candles opening after the entry, checked every 15 minutes: a 4% stop ` +
  `(stop_loss, filled at the stop or the open on a gap), a 4% take-profit (take_profit, likewise), else after ${MAX_HOLD_CANDLES} candles at the close (max_hold). The arena is ` +
  "long only, so a sell or hold consensus opens nothing. The trade's predicted_p is the mean calibrated probability of the valid verdicts that the long trade wins; entry and exit " +
  `are signed attestations like every arena trade. Each valid verdict is a claim of agent chart:<model-id>, kind ${CHART_KIND}, predicted_p = confidence for buy, 1 − confidence ` +
  "for sell, 0.5 for hold, resolved (verified) by the trade's outcome: 1 iff it closed with a profit. Their curves: GET /api/v1/calib/curve?agent_id=chart:<model-id>&kind=chart-trade.";

/** One valid verdict as it enters the trade: its model, its raw claim probability and its calibrated one. */
export interface CountedVerdict {
  model: ModelRef;
  verdict: Verdict;
  claimP: number;
  calibratedClaimP: number;
}

export interface TraderDeps {
  arena: ArenaService;
  calib: CalibrationService;
  binance: HostHttp;
  clock: Clock;
  publicUrl: string;
}

/** The chart-consensus hand-off to the arena: opening trades from analyses, and closing them on candles. */
export class ChartTrader {
  constructor(private readonly o: TraderDeps) {}

  async open(asset: Asset, consensus: ConsensusResult, counted: readonly CountedVerdict[], imageSha256: string): Promise<PaperTradeResult> {
    if (consensus.signal !== 'buy') {
      return {
        opened: false,
        reason: `the consensus is ${consensus.signal ?? 'empty'}; the arena trades long only, so only buy opens a trade`,
      };
    }
    const price = await this.livePrice(asset).catch((e: Error) => e);
    if (price instanceof Error) {
      return { opened: false, reason: `the live price was unavailable (Binance ${asset}USDT 1m): ${price.message.slice(0, 200)}` };
    }
    const entryTs = this.o.clock.now();
    const modelClaims = await Promise.all(counted.map((c) => this.recordModelClaim(c, asset, entryTs, imageSha256)));
    const predictedP = counted.reduce((sum, c) => sum + c.calibratedClaimP, 0) / counted.length;
    const trade = {
      entry_ts: entryTs,
      entry_price: price,
      predicted_p: predictedP,
      signals_lit: [],
      exit_ts: null,
      exit_price: null,
      exit_reason: null,
    };
    const record = { image_sha256: imageSha256, consensus_share: consensus.share, model_claims: modelClaims };
    if (!(await this.o.arena.open(CHART_CONSENSUS, asset, trade, HOUR_S, record))) {
      const message = `a ${CHART_CONSENSUS} trade on ${asset} was opened in the same millisecond; send the analysis again`;
      throw new ApiError('conflict', message, { field: 'paper_trade' });
    }
    const id = attestationId(CHART_CONSENSUS, asset, entryTs, 'enter');
    const entry = (await this.o.arena.attestation(id))!;
    const links = {
      claim_id: entry.claim_id as string,
      attestation: attestationRef(id),
      attestation_url: `${this.o.publicUrl}${attestationPath(id)}`,
    };
    return {
      opened: true,
      strategy: CHART_CONSENSUS,
      asset,
      mode: 'live',
      entry_ts: entryTs,
      entry_price: price,
      predicted_p: predictedP,
      ...links,
      model_claims: modelClaims,
    };
  }

  /** The scheduler's pass: exits of open chart-consensus trades, then each model claim resolved by its trade's outcome. */
  async watch(): Promise<number> {
    let closed = 0;
    for (const asset of ASSETS) {
      const open = (await this.o.arena.trades(CHART_CONSENSUS, asset)).filter((t) => t.exit_ts === null);
      if (open.length === 0) continue;
      const nowS = unixSeconds(this.o.clock);
      const from = Math.floor(Math.min(...open.map((t) => t.entry_ts)) / 1000 / HOUR_S) * HOUR_S;
      const candles = await binanceCandles.fetch(
        this.o.binance,
        `${asset}USDT`,
        '1h',
        from,
        nowS,
        Math.ceil((nowS - from) / HOUR_S) + 1,
        Date.now() + UPSTREAM_DEADLINE_MS,
      );
      const complete = candles.filter((c) => c.t + HOUR_S <= nowS).sort((a, b) => a.t - b.t);
      for (const trade of await this.o.arena.watchOpen(CHART_CONSENSUS, asset, complete, HOUR_S)) {
        await this.resolveModelClaims(asset, trade.entry_ts, trade.outcome, {
          pnl_pct: trade.pnl_pct,
          exit_reason: trade.exit_reason,
          exit_price: trade.exit_price,
        });
        closed++;
      }
    }
    return closed;
  }

  private async livePrice(asset: Asset): Promise<number> {
    const nowS = unixSeconds(this.o.clock);
    const candles = await binanceCandles.fetch(
      this.o.binance,
      `${asset}USDT`,
      '1m',
      nowS - 600,
      nowS,
      20,
      Date.now() + UPSTREAM_DEADLINE_MS,
    );
    const latest = candles
      .filter((c) => c.t <= nowS)
      .sort((a, b) => a.t - b.t)
      .at(-1);
    if (!latest || !(latest.c > 0)) throw new Error('no recent kline');
    return latest.c;
  }

  private async recordModelClaim(c: CountedVerdict, asset: Asset, entryTs: number, imageSha256: string) {
    const agentId = chartAgentId(c.model.id);
    const { claim_id } = await this.o.calib.recordClaim({
      agent_id: agentId,
      kind: CHART_KIND,
      predicted_p: c.claimP,
      payload: {
        strategy: CHART_CONSENSUS,
        asset,
        entry_ts: entryTs,
        image_sha256: imageSha256,
        vendor: c.model.vendor,
        model: c.model.model,
        signal: c.verdict.signal,
        confidence: c.verdict.confidence,
        trend: c.verdict.trend,
      },
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: TTL_HOURS,
    });
    return { model: c.model.id, agent_id: agentId, claim_id, predicted_p: c.claimP };
  }

  /** The model claims listed in the entry attestation, resolved as verified outcomes of the trade. */
  private async resolveModelClaims(asset: Asset, entryTs: number, outcome: 0 | 1, evidence: Record<string, unknown>): Promise<void> {
    const entryId = attestationId(CHART_CONSENSUS, asset, entryTs, 'enter');
    const entry = await this.o.arena.attestation(entryId);
    const claims = (entry?.model_claims ?? []) as { claim_id: string }[];
    const proof = { ...evidence, exit_attestation: attestationRef(attestationId(CHART_CONSENSUS, asset, entryTs, 'exit')) };
    for (const { claim_id } of claims) {
      await this.o.calib.recordOutcome(claim_id, outcome, proof, 'verified').catch((e: unknown) => {
        if (!(e instanceof ApiError && e.code === 'already_resolved')) throw e;
      });
    }
  }
}
