import { sha256Tagged } from '../core/canonical-json.js';
import type { Clock } from '../core/clock.js';
import type { SigningKey } from '../core/signing-keys.js';
import { signLoggedReceipt, type ReceiptLog } from '../core/logged-receipt.js';
import { responseHash, signReceipt } from '../core/receipt.js';
import type { CalibrationService } from '../calib/service.js';
import type { ArenaRepo, TradeRow } from '../store/repos/arena.js';
import type { TradeMode } from '../store/schema.js';
import type { Candle } from '../core/candles.js';
import { attestationId } from './attestations.js';
import { MAX_HOLD_CANDLES, pnlPct, resumeAfter, settle, simulate } from './paper-trader.js';
import type { AnyStrategy, Asset, ChartStrategy, ClosedTrade, PaperTrade, Strategy } from './paper-trader.js';

export const agentIdOf = (strategy: string, asset: string) => `arena:${strategy}:${asset}`;
export const attestationPath = (id: string) => `/api/v1/arena/attestation/${id}`;

/** An entry recorded within this long of its signal candle's close was decided live; later ones are replays. */
export const LIVE_MAX_LAG_MS = 2 * 3600_000;
export const MODE_RULE =
  `mode is the entry's: \`live\` when svc recorded the entry within ${LIVE_MAX_LAG_MS / 3600_000} h of its signal candle's close (the scheduler on fresh candles), ` +
  '`backfill` when it was replayed over history (npm run arena:backfill, or the scheduler catching up on candles older than that, e.g. on its first run or after downtime)';

export interface ArenaDeps {
  repo: ArenaRepo;
  calib: CalibrationService;
  key: SigningKey;
  issuer: string;
  clock: Clock;
  /** The transparency log: attestations are public records, so their receipts are logged. */
  log?: ReceiptLog;
}

/** Records paper trades as they appear in the candles: entry → claim + attestation; exit → outcome + attestation. */
export class ArenaService {
  constructor(private readonly deps: ArenaDeps) {}

  /** `replay`: the candles are history being backfilled, so every trade is `backfill` whatever its age. */
  async ingest(
    strategy: Strategy,
    asset: Asset,
    candles: Candle[],
    intervalS: number,
    { replay = false } = {},
  ): Promise<{ entered: number; exited: number }> {
    let entered = 0;
    let exited = 0;
    // Continue from what is already recorded, so a sliding window never invents trades a continuous history would not take.
    const resume = resumeAfter(await this.deps.repo.trades(strategy, asset));
    for (const trade of simulate(strategy, candles, intervalS, resume)) {
      const mode: TradeMode = !replay && this.deps.clock.now() - trade.entry_ts <= LIVE_MAX_LAG_MS ? 'live' : 'backfill';
      if (await this.enter(strategy, asset, trade, intervalS, mode)) entered++;
      if (trade.exit_ts !== null && (await this.exit(strategy, asset, trade))) exited++;
    }
    return { entered, exited };
  }

  /**
   * Opens a trade decided outside the candles (chart-consensus) at its decision time, mode live;
   * `record` joins the claim payload and the entry attestation. False when that entry exists already.
   */
  async open(strategy: ChartStrategy, asset: Asset, trade: PaperTrade, intervalS: number, record: Record<string, unknown>) {
    return this.enter(strategy, asset, trade, intervalS, 'live', record);
  }

  /** Watches each open trade of the strategy for its exit on the candles opening at or after its entry; returns the trades closed now. */
  async watchOpen(strategy: ChartStrategy, asset: Asset, candles: readonly Candle[], intervalS: number): Promise<ClosedTrade[]> {
    const closed: ClosedTrade[] = [];
    for (const row of (await this.deps.repo.trades(strategy, asset)).filter((t) => t.exit_ts === null)) {
      const open = resumeAfter([row]).open!;
      const after = candles.filter((c) => c.t * 1000 >= row.entry_ts);
      const exited = simulate(strategy, after, intervalS, { open })
        .map(settle)
        .find((t) => t !== undefined);
      if (exited && (await this.exit(strategy, asset, exited))) closed.push(exited);
    }
    return closed;
  }

  /** `record`: more fields for the claim payload and the entry attestation. */
  private async enter(strategy: AnyStrategy, asset: Asset, trade: PaperTrade, intervalS: number, mode: TradeMode, record = {}) {
    const existing = await this.deps.repo.get(strategy, asset, trade.entry_ts);
    if (existing) return false;
    const agentId = agentIdOf(strategy, asset);
    const { claim_id } = await this.deps.calib.recordClaim({
      agent_id: agentId,
      kind: 'trade',
      predicted_p: trade.predicted_p,
      payload: {
        strategy,
        asset,
        mode,
        entry_ts: trade.entry_ts,
        entry_price: trade.entry_price,
        signals_lit: trade.signals_lit,
        ...record,
      },
      outcome_resolver: { type: 'manual', config: {} },
      ttl_hours: Math.ceil(((MAX_HOLD_CANDLES + 2) * intervalS) / 3600) + 1,
    });
    const inserted = await this.deps.repo.insertEntry({
      strategy,
      asset,
      entry_ts: trade.entry_ts,
      entry_price: trade.entry_price,
      predicted_p: trade.predicted_p,
      signals_lit_json: JSON.stringify(trade.signals_lit),
      claim_id,
      exit_ts: null,
      exit_price: null,
      exit_reason: null,
      pnl_pct: null,
      mode,
    });
    if (inserted) {
      await this.attest(attestationId(strategy, asset, trade.entry_ts, 'enter'), trade.entry_ts, {
        event: 'enter',
        mode,
        agent_id: agentId,
        strategy,
        asset,
        entry_ts: trade.entry_ts,
        entry_price: trade.entry_price,
        predicted_p: trade.predicted_p,
        signals_lit: trade.signals_lit,
        claim_id,
        ...record,
      });
    }
    return inserted;
  }

  private async exit(strategy: AnyStrategy, asset: Asset, trade: PaperTrade): Promise<boolean> {
    const pnl = pnlPct(trade)!;
    const closed = await this.deps.repo.close(strategy, asset, trade.entry_ts, {
      exit_ts: trade.exit_ts,
      exit_price: trade.exit_price,
      exit_reason: trade.exit_reason,
      pnl_pct: pnl,
    });
    if (!closed) return false;
    const row = (await this.deps.repo.get(strategy, asset, trade.entry_ts))!;
    const outcome = pnl > 0 ? 1 : 0;
    if (row.claim_id)
      await this.deps.calib.recordOutcome(
        row.claim_id,
        outcome,
        { pnl_pct: pnl, exit_reason: trade.exit_reason, exit_price: trade.exit_price },
        'verified',
      );
    await this.attest(attestationId(strategy, asset, trade.entry_ts, 'exit'), trade.exit_ts!, {
      event: 'exit',
      mode: row.mode,
      agent_id: agentIdOf(strategy, asset),
      strategy,
      asset,
      entry_ts: trade.entry_ts,
      entry_price: trade.entry_price,
      exit_ts: trade.exit_ts,
      exit_price: trade.exit_price,
      exit_reason: trade.exit_reason,
      pnl_pct: pnl,
      outcome,
      claim_id: row.claim_id,
      entry_attestation: `arena-att:${attestationId(strategy, asset, trade.entry_ts, 'enter')}`,
    });
    return true;
  }

  /** Signs the record at event time, as the receipt of a GET of its attestation URL, and stores it (the first of two writes wins). */
  async attest(id: string, eventTsMs: number, record: Record<string, unknown>): Promise<void> {
    const body = { id, attestation: `arena-att:${id}`, ...record };
    const unsigned = {
      request_hash: sha256Tagged({ method: 'GET', path: attestationPath(id), query: {}, body: null }),
      response_hash: responseHash(body),
      as_of: Math.floor(eventTsMs / 1000),
      issued_at: Math.floor(this.deps.clock.now() / 1000),
      sources: ['binance'],
      issuer: this.deps.issuer,
    };
    const { key, log } = this.deps;
    const receipt = log ? await signLoggedReceipt(key, log, unsigned) : signReceipt(key, unsigned);
    await this.deps.repo.saveAttestation(id, { ...body, _receipt: receipt }, this.deps.clock.now());
  }

  attestation(id: string) {
    return this.deps.repo.attestation(id);
  }

  trades(strategy: AnyStrategy, asset: Asset): Promise<TradeRow[]> {
    return this.deps.repo.trades(strategy, asset);
  }
}
