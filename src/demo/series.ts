/**
 * Demo price series: a deterministic price path per (seed, symbol) defined at every instant, so candles of
 * any interval, any range and any pair agree with each other and move with the clock. log(price) is the
 * symbol's base level plus four sine waves (hours to weeks) with seeded phases, plus a small seeded
 * per-minute jitter. Demo data only: every answer built from it says `source_mode: "demo"`.
 */

import { roundTo } from '../core/numbers.js';
const WAVES = [
  { periodS: 0.4 * 86_400, amplitude: 0.008 },
  { periodS: 3 * 86_400, amplitude: 0.03 },
  { periodS: 11 * 86_400, amplitude: 0.06 },
  { periodS: 37 * 86_400, amplitude: 0.12 },
];
const JITTER = 0.002;

/** Plausible levels for the usual demo symbols; others get a seeded level between 1 and 1,000. */
const LEVELS: Record<string, number> = {
  BTC: 90_000,
  ETH: 3_000,
  SOL: 140,
  BNB: 600,
  XRP: 0.6,
  DOGE: 0.15,
  AAPL: 230,
  MSFT: 420,
  NVDA: 140,
  TSLA: 250,
  SPY: 590,
};
/** USD per unit, for currency pairs; unknown currencies get a seeded value. */
const USD_VALUE: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067, CHF: 1.13, CAD: 0.73, AUD: 0.66, CNY: 0.14 };

/** 32-bit FNV-1a of the text, mixed with the seed. */
function hash(seed: number, text: string): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  h ^= h >>> 15;
  return Math.imul(h, 2246822507) >>> 0;
}
const unit = (seed: number, text: string) => hash(seed, text) / 2 ** 32;

export class DemoSeries {
  constructor(private readonly seed: number) {}

  level(symbol: string): number {
    return LEVELS[symbol] ?? 1 + Math.round(unit(this.seed, `level:${symbol}`) * 999);
  }

  /** The rate of `base` in `quote` (how many quote units one base unit buys). */
  rate(base: string, quote: string): number {
    const usd = (c: string) => USD_VALUE[c] ?? 0.05 + unit(this.seed, `usd:${c}`) * 2;
    return usd(base) / usd(quote);
  }

  /** The price of `symbol` at Unix second `t`, starting from `level`. */
  price(symbol: string, t: number, level = this.level(symbol)): number {
    const waves = WAVES.reduce(
      (sum, w, k) => sum + w.amplitude * Math.sin((2 * Math.PI * t) / w.periodS + unit(this.seed, `${symbol}:${k}`) * 2 * Math.PI),
      0,
    );
    const jitter = JITTER * (unit(this.seed, `${symbol}@${Math.floor(t / 60)}`) - 0.5);
    return level * Math.exp(waves + jitter);
  }

  /** The candle opening at `t` and lasting `stepS`: open and close on the path, high and low over four inner points. */
  candle(symbol: string, t: number, stepS: number, level = this.level(symbol)) {
    const points = [0, 0.25, 0.5, 0.75, 1].map((f) => this.price(symbol, t + f * stepS, level));
    const digits = level < 10 ? 5 : 2;
    const round = (n: number) => roundTo(n, digits);
    const volume = Math.round((stepS / 60) * 100 * (0.5 + unit(this.seed, `vol:${symbol}@${t}`)));
    return { t, o: round(points[0]!), h: round(Math.max(...points)), l: round(Math.min(...points)), c: round(points[4]!), v: volume };
  }

  /** Bars of `stepS` aligned to multiples of it, opening in [from, to]; `weekdays` leaves out Saturdays and Sundays. */
  bars(symbol: string, stepS: number, from: number, to: number, options: { weekdays?: boolean; level?: number } = {}) {
    const out = [];
    for (let t = Math.ceil(from / stepS) * stepS; t <= to; t += stepS) {
      const day = new Date(t * 1000).getUTCDay();
      if (options.weekdays && (day === 0 || day === 6)) continue;
      out.push(this.candle(symbol, t, stepS, options.level));
    }
    return out;
  }
}
