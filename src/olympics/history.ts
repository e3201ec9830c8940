import type { Candle } from '../core/candles.js';
import type { NewEvent } from './service.js';

/** Binance pairs the backfill replays, hourly candles. */
export const BACKFILL_PAIRS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] as const;
const HOUR_S = 3600;
const DAY_S = 86_400;
/** Hourly candles shown before the question (two days). */
const SHOWN_CANDLES = 48;
/** Fewer shown candles than this and the day is skipped. */
const MIN_SHOWN = 24;

export const CANDLE_RULE =
  'backfill events (mode backfill) are asked at each UTC midnight T of the window, over the 48 hourly Binance candles closed by T (no later data is shown); ' +
  'resolver candle_close_above: outcome 1 iff the hourly candle closing at T + 24 h closes strictly above the close of the candle closing at T. ' +
  'Models may have seen that history in training, so backfill results are kept out of live standings unless mode=backfill or mode=all is asked for.';

export interface ReplayedEvent {
  event: NewEvent;
  outcome: 0 | 1;
  evidence: Record<string, unknown>;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

/**
 * The backfill events of one pair over [fromS, toS] (Unix s), from its hourly candles (any order):
 * one per UTC midnight that has its shown candles and the candle 24 h later. Pure.
 */
export function replayEvents(pair: string, candles: readonly Candle[], fromS: number, toS: number): ReplayedEvent[] {
  const byClose = new Map(candles.map((c) => [c.t + HOUR_S, c]));
  const sorted = [...candles].sort((a, b) => a.t - b.t);
  const events: ReplayedEvent[] = [];
  for (let at = Math.ceil(fromS / DAY_S) * DAY_S; at + DAY_S <= toS; at += DAY_S) {
    const now = byClose.get(at);
    const later = byClose.get(at + DAY_S);
    const shown = sorted.filter((c) => c.t + HOUR_S <= at).slice(-SHOWN_CANDLES);
    if (!now || !later || shown.length < MIN_SHOWN) continue;
    const threshold = now.c;
    events.push({
      outcome: later.c > threshold ? 1 : 0,
      evidence: { resolver: 'candle_close_above', pair, close_at: at + DAY_S, close: later.c, threshold, source: 'binance' },
      event: {
        template: 'candle_above_24h',
        key: `${pair}|${at}`,
        discipline: 'crypto',
        mode: 'backfill',
        openedAt: at * 1000,
        resolvesAt: at + DAY_S,
        question: `Will ${pair} on Binance close the hourly candle ending ${iso(at + DAY_S)} above ${threshold} USDT, its close at ${iso(at)}?`,
        data: [
          {
            label: `binance ${pair} 1h candles`,
            type: 'candles',
            q: `${pair} 1h`,
            source: 'binance',
            as_of: at,
            rows: shown.map((c) => ({ ...c })),
          },
        ],
        resolver: { type: 'candle_close_above', config: { pair, interval: '1h', close_at: at + DAY_S, threshold } },
      },
    });
  }
  return events;
}
