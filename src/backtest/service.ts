import { ApiError } from '../core/errors.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import type { CursorCodec } from '../core/cursor.js';
import type { HostHttp, UpstreamClient } from '../upstream/client.js';
import type { HostName } from '../upstream/hosts.js';
import { UpstreamError } from '../upstream/errors.js';
import { INTERVAL_SECONDS, normalizeCandles, type Candle, type Interval } from './candles.js';
import { CANDLE_PROVIDERS, type BacktestType } from './providers/index.js';

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

interface CursorPayload {
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

  /** Continues a paged range: the cursor carries the query and where the next page starts. */
  resume(cursor: string): CursorPayload {
    return this.cursors.decode<CursorPayload>(BACKTEST_CURSOR, cursor);
  }

  async candles(input: BacktestInput) {
    const provider = CANDLE_PROVIDERS[input.type];
    const symbol = provider.parseQ(input.q);
    if (!provider.intervals.includes(input.interval)) {
      throw new ApiError('validation_failed', `${input.type} candles come from a source that serves ${provider.intervals.join(', ')} only`, {
        field: 'interval', rule: 'supported', allowed: [...provider.intervals],
      });
    }
    if (input.from >= input.to) throw new ApiError('validation_failed', 'from must be before to', { field: 'from', rule: 'before_to' });
    const nowS = unixSeconds(this.clock);
    const step = INTERVAL_SECONDS[input.interval];
    const limit = input.paid ? PAID_CANDLES : FREE_CANDLES;
    // Unpaid: the last 100 candles of the range, so only that tail is fetched.
    const from = input.paid ? input.from : Math.max(input.from, Math.min(input.to, nowS) - step * (FREE_CANDLES + 1));
    const raw = await this.fetch(provider.host, (http, deadline) => provider.fetch(http, symbol, input.interval, from, input.to, limit + 1, deadline));
    const all = normalizeCandles(raw, { from, to: input.to, nowS, intervalS: step });
    const data = input.paid ? all.slice(0, limit) : all.slice(-limit);
    const more = input.paid && all.length > limit;
    const last = data[data.length - 1];
    return {
      type: input.type,
      q: input.q,
      interval: input.interval,
      count: data.length,
      paid: input.paid,
      source: provider.host,
      as_of: last ? last.t + step : nowS,
      data,
      ...(more && last
        ? { _cursor: this.cursors.encode(BACKTEST_CURSOR, { type: input.type, q: input.q, interval: input.interval, from: last.t + step, to: input.to } satisfies CursorPayload) }
        : {}),
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
