import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { CursorCodec } from '../core/cursor.js';
import type { HostHttp, UpstreamClient } from '../upstream/client.js';
import { UpstreamError, refusesQuery } from '../upstream/errors.js';
import type { SourceRunner } from '../sources/runner.js';
import { unknownSymbol } from '../sources/vocabulary.js';
import { INTERVAL_SECONDS, aggregateCandles, normalizeCandles, type Candle, type Interval } from '../core/candles.js';
import { marketStateSource, sourceFor, type BacktestType, type CandleProvider } from './providers/index.js';
import type { MarketState } from '../upstream/formats/yahoo-chart.js';

export const BACKTEST_CURSOR = 'svc-bt-cur:';
export const FREE_CANDLES = 100;
export const PAID_CANDLES = 10_000;
const DEADLINE_MS = 15_000;

export interface BacktestInput {
  type: BacktestType;
  q: string;
  from: number;
  to: number;
  interval: Interval;
  paid: boolean;
}

export interface CursorPayload {
  type: BacktestType;
  q: string;
  interval: Interval;
  from: number;
  to: number;
}

/** What one backtest reads: the source, its symbol, the intervals asked and served, and now. */
interface Plan {
  provider: CandleProvider;
  symbol: string;
  /** q as the type's vocabulary resolved it (`bitcoin`, `AAPL`, `EUR:USD`). */
  key: string;
  interval: Interval;
  sourceInterval: Interval;
  nowS: number;
  /** The answer to give when the upstream refuses the symbol. */
  unknown: () => ApiError;
}

/** An unpaid backtest looks back through at most this many windows, each 4× longer: 101 intervals up to 138,000 in all. */
const MAX_WINDOWS = 6;

export class BacktestService {
  constructor(
    private readonly upstream: UpstreamClient,
    private readonly sources: SourceRunner,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  /** A cursor continues the query it was issued for: the same type, q, interval and `to`; it only moves `from`. */
  resume(cursor: string, query: Omit<CursorPayload, 'from'>): number {
    const payload = this.cursors.decode<CursorPayload>(BACKTEST_CURSOR, cursor);
    const differs = (['type', 'q', 'interval', 'to'] as const).find((k) => payload[k] !== query[k]);
    if (differs)
      throw new ApiError('validation_failed', `cursor was issued for another ${differs}`, { field: 'cursor', rule: 'same_query', differs });
    return payload.from;
  }

  async candles(input: BacktestInput) {
    const plan = this.plan(input);
    if (input.from >= input.to) throw new ApiError('validation_failed', 'from must be before to', { field: 'from', rule: 'before_to' });
    const step = INTERVAL_SECONDS[input.interval];
    const limit = input.paid ? PAID_CANDLES : FREE_CANDLES;
    const [all, marketState] = await Promise.all([
      input.paid ? this.range(plan, this.checked(plan, input.from), input.to, limit + 1) : this.lastCandles(plan, input),
      this.marketState(input.type, plan),
    ]);
    const data = input.paid ? all.slice(0, limit) : all.slice(-limit);
    const last = data[data.length - 1];
    const query = { type: input.type, q: input.q, interval: input.interval, to: input.to };
    // Paid: the next page when there is more. Unpaid: the whole range asked for, for a paid call to continue.
    const next = input.paid ? (all.length > limit && last ? last.t + step : undefined) : input.from;
    return {
      ...query,
      count: data.length,
      paid: input.paid,
      source: plan.provider.host,
      source_interval: plan.sourceInterval,
      ...(plan.sourceInterval === input.interval ? {} : { aggregation: aggregationNote(input.interval, plan.sourceInterval) }),
      as_of: last ? last.t + step : plan.nowS,
      ...(marketState ? { market_state: marketState } : {}),
      data,
      ...(next !== undefined ? { _cursor: this.cursors.encode(BACKTEST_CURSOR, { ...query, from: next } satisfies CursorPayload) } : {}),
    };
  }

  /** The source and its symbol for q, read with the type's one vocabulary (`BTC`, `bitcoin` and `svc-ent:cr.bitcoin` alike). */
  private plan(input: BacktestInput): Plan {
    const { provider, sourceInterval } = sourceFor(input.type, input.interval);
    const { descriptor, key } = this.sources.prepare(input.type, input.q);
    const unknown = () => unknownSymbol(descriptor, input.q);
    const symbol = provider.symbolOf(key, unknown);
    return { provider, symbol, key, interval: input.interval, sourceInterval, nowS: unixSeconds(this.clock), unknown };
  }

  /** Whether the instrument's market is open now, where a source says so; its failure leaves the field out rather than the candles. */
  private async marketState(type: BacktestType, plan: Plan): Promise<MarketState | null> {
    const source = marketStateSource(type);
    if (!source?.marketState) return null;
    try {
      return await source.marketState(
        this.upstream.host(source.host),
        source.symbolOf(plan.key, plan.unknown),
        plan.nowS,
        Date.now() + DEADLINE_MS,
      );
    } catch {
      return null;
    }
  }

  /** `from`, once the source is known to reach back that far (else a 400). */
  private checked(plan: Plan, from: number): number {
    checkLookback(plan.provider.lookbackS?.[plan.sourceInterval], from, plan.nowS, plan.sourceInterval);
    return from;
  }

  /**
   * Unpaid: the last 100 candles that exist at or before `to` — not 100 intervals of wall time, which hold none on a
   * weekend, a holiday or a night. Windows reach 4× further back each time, down to `from` or as far as the source keeps.
   */
  private async lastCandles(plan: Plan, input: BacktestInput): Promise<Candle[]> {
    const step = INTERVAL_SECONDS[plan.interval];
    const end = Math.min(input.to, plan.nowS);
    const lookback = plan.provider.lookbackS?.[plan.sourceInterval];
    const floor = Math.max(input.from, lookback === undefined ? 0 : plan.nowS - lookback);
    const firstSpan = step * (FREE_CANDLES + 1);
    this.checked(plan, Math.max(input.from, end - firstSpan));
    let candles: Candle[] = [];
    let hi = end;
    for (let window = 0, span = firstSpan; window < MAX_WINDOWS && candles.length < FREE_CANDLES && hi >= floor; window++) {
      const lo = Math.max(floor, Math.floor((hi - span) / step) * step);
      candles = [...(await this.range(plan, lo, hi, Math.ceil((hi - lo) / step) + 1)), ...candles];
      hi = lo - 1;
      span *= 4;
    }
    return candles;
  }

  /** Candles of the plan's interval opening in [from, to]: the source's, or built from its shorter ones. */
  private async range(plan: Plan, from: number, to: number, max: number): Promise<Candle[]> {
    const { provider, symbol, interval, sourceInterval, nowS } = plan;
    const step = INTERVAL_SECONDS[interval];
    const sourceStep = INTERVAL_SECONDS[sourceInterval];
    // An aggregated candle opening at `to` still needs its source candles up to the end of its bucket.
    const sourceTo = to + step - sourceStep;
    const raw = await this.fetch(plan, (http, deadline) =>
      provider.fetch(http, symbol, sourceInterval, from, sourceTo, max * (step / sourceStep), deadline),
    );
    const source = normalizeCandles(raw, { from, to: sourceTo, nowS, intervalS: sourceStep });
    const built = sourceInterval === interval ? source : aggregateCandles(source, step);
    return normalizeCandles(built, { from, to, nowS, intervalS: step });
  }

  /** The source's candles; its refusal of the symbol is the caller's 404, anything else an outage (503). */
  private async fetch(plan: Plan, run: (http: HostHttp, deadline: number) => Promise<Candle[]>): Promise<Candle[]> {
    const host = plan.provider.host;
    try {
      return await run(this.upstream.host(host), Date.now() + DEADLINE_MS);
    } catch (e) {
      if (e instanceof UpstreamError && refusesQuery(e)) throw plan.unknown();
      if (e instanceof UpstreamError) {
        throw new ApiError('upstream_unavailable', `candles unavailable: ${e.message}`, { reason: e.reason, source: host });
      }
      throw e;
    }
  }
}

const aggregationNote = (interval: Interval, sourceInterval: Interval) =>
  `${interval} candles built by svc from the source's ${sourceInterval} candles in UTC buckets (00:00, 04:00, 08:00 … for 4h): ` +
  'open of the first, close of the last, highest high, lowest low, summed volume; a bucket with no source candle is left out';

/** An upstream that keeps `lookbackS` of an interval cannot serve a range starting earlier: say so as a 400. */
function checkLookback(lookbackS: number | undefined, from: number, nowS: number, interval: Interval): void {
  if (lookbackS === undefined || from >= nowS - lookbackS) return;
  throw new ApiError('validation_failed', `${interval} candles reach back ${lookbackS / 86_400} days only; from is earlier`, {
    field: 'from',
    rule: 'lookback',
    interval,
    earliest: nowS - lookbackS,
  });
}
