import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { CursorCodec } from '../core/cursor.js';
import type { HostHttp, UpstreamClient } from '../upstream/client.js';
import type { HostName } from '../upstream/hosts.js';
import { UpstreamError } from '../upstream/errors.js';
import { INTERVAL_SECONDS, aggregateCandles, normalizeCandles, type Candle, type Interval } from '../core/candles.js';
import { sourceFor, type BacktestType } from './providers/index.js';

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

export class BacktestService {
  constructor(
    private readonly upstream: UpstreamClient,
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
    const { provider, sourceInterval } = sourceFor(input.type, input.interval);
    const symbol = provider.parseQ(input.q);
    if (input.from >= input.to) throw new ApiError('validation_failed', 'from must be before to', { field: 'from', rule: 'before_to' });
    const nowS = unixSeconds(this.clock);
    const step = INTERVAL_SECONDS[input.interval];
    const sourceStep = INTERVAL_SECONDS[sourceInterval];
    const perCandle = step / sourceStep;
    const limit = input.paid ? PAID_CANDLES : FREE_CANDLES;
    // Unpaid: the last 100 candles of the range, so only that tail is fetched.
    const from = input.paid ? input.from : Math.max(input.from, Math.min(input.to, nowS) - step * (FREE_CANDLES + 1));
    checkLookback(provider.lookbackS?.[sourceInterval], from, nowS, sourceInterval);
    // An aggregated candle opening at `to` still needs its source candles up to the end of its bucket.
    const sourceTo = input.to + step - sourceStep;
    const raw = await this.fetch(provider.host, (http, deadline) =>
      provider.fetch(http, symbol, sourceInterval, from, sourceTo, (limit + 1) * perCandle, deadline),
    );
    const source = normalizeCandles(raw, { from, to: sourceTo, nowS, intervalS: sourceStep });
    const built = sourceInterval === input.interval ? source : aggregateCandles(source, step);
    const all = normalizeCandles(built, { from, to: input.to, nowS, intervalS: step });
    const data = input.paid ? all.slice(0, limit) : all.slice(-limit);
    const last = data[data.length - 1];
    const query = { type: input.type, q: input.q, interval: input.interval, to: input.to };
    // Paid: the next page when there is more. Unpaid: the whole range asked for, for a paid call to continue.
    const next = input.paid ? (all.length > limit && last ? last.t + step : undefined) : input.from;
    return {
      ...query,
      count: data.length,
      paid: input.paid,
      source: provider.host,
      source_interval: sourceInterval,
      ...(sourceInterval === input.interval ? {} : { aggregation: aggregationNote(input.interval, sourceInterval) }),
      as_of: last ? last.t + step : nowS,
      data,
      ...(next !== undefined ? { _cursor: this.cursors.encode(BACKTEST_CURSOR, { ...query, from: next } satisfies CursorPayload) } : {}),
    };
  }

  private async fetch(host: HostName, run: (http: HostHttp, deadline: number) => Promise<Candle[]>): Promise<Candle[]> {
    try {
      return await run(this.upstream.host(host), Date.now() + DEADLINE_MS);
    } catch (e) {
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
