import type { Candle } from '../core/candles.js';
import { roundSig } from '../core/numbers.js';
import { assetSpec, canonicalAsset, usdKey, type AssetSpec } from './assets.js';
import { hash32 } from './random.js';

/**
 * One market state per asset, defined at every instant: a seeded random walk that reverts to the asset's level.
 * Daily values follow an Ornstein–Uhlenbeck walk from 2015-01-01; within a day, hours and then minutes are filled in
 * by Brownian bridges between the values around them, and seconds by straight lines between minutes. The path is a
 * pure function of (seed, asset, time): candles of any interval, the spot price, the book's mid and a 24 h change all
 * read the same path, and the world an hour ago is the same whenever it is asked for.
 */
const DAY_S = 86_400;
const HOUR_S = 3_600;
const FIRST_DAY = Date.UTC(2015, 0, 1) / 1000 / DAY_S;
const DRIFT_FROM_DAY = Date.UTC(2026, 0, 1) / 1000 / DAY_S;
const CANDLE_POINTS = 12;
/** Bridge arrays kept (each a day's hours or an hour's minutes); cleared when full. */
const MAX_CACHED = 20_000;

/** Standard normals from a seeded stream (mulberry32 + Box–Muller): fast for the sequential walks. */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
}

/** `steps + 1` points from `from` to `to` whose steps have standard deviation `stepVol`, pinned at both ends. */
function bridge(from: number, to: number, steps: number, stepVol: number, draw: () => number): Float64Array {
  const walk = new Float64Array(steps + 1);
  for (let i = 1; i <= steps; i++) walk[i] = walk[i - 1]! + stepVol * draw();
  const end = walk[steps]!;
  return walk.map((w, i) => from + (i / steps) * (to - from) + w - (i / steps) * end);
}

export class Market {
  private readonly days = new Map<string, number[]>();
  private readonly fine = new Map<string, Float64Array>();
  private readonly specs = new Map<string, AssetSpec>();

  constructor(readonly seed: number) {}

  spec(asset: string): AssetSpec {
    const key = canonicalAsset(asset);
    let spec = this.specs.get(key);
    if (!spec) this.specs.set(key, (spec = assetSpec(this.seed, key)));
    return spec;
  }

  /** The asset's value at Unix second `t`; `pair:BTC/USDT` is one asset priced in another. */
  price(asset: string, t: number): number {
    if (asset.startsWith('pair:')) {
      const [base = '', quote = ''] = asset.slice('pair:'.length).split('/');
      return this.usd(base, t) / this.usd(quote, t);
    }
    const key = canonicalAsset(asset);
    const spec = this.spec(key);
    const day = Math.floor(t / DAY_S);
    const intoDay = t - day * DAY_S;
    const hour = Math.min(23, Math.floor(intoDay / HOUR_S));
    const intoHour = intoDay - hour * HOUR_S;
    const minute = Math.min(59, Math.floor(intoHour / 60));
    const minutes = this.minutes(key, spec, day, hour);
    const frac = (intoHour - minute * 60) / 60;
    const value = minutes[minute]! + frac * (minutes[minute + 1]! - minutes[minute]!);
    return spec.additive ? value : Math.exp(value);
  }

  /** USD per unit of a currency (`EUR`) or coin (`BTC`) at `t`. */
  usd(symbol: string, t: number): number {
    const key = usdKey(symbol);
    return key ? this.price(key, t) : 1;
  }

  /** The relative change over the `windowS` seconds before `t` (0.012 = +1.2 %). */
  change(asset: string, t: number, windowS = DAY_S): number {
    return this.price(asset, t) / this.price(asset, t - windowS) - 1;
  }

  /**
   * The candle opening at `t` and lasting `stepS`, cut at `nowS` while it is still open: open and close on the path,
   * high and low over twelve points in between (at least a minute apart).
   */
  candle(asset: string, t: number, stepS: number, nowS = Infinity): Candle {
    const end = Math.min(t + stepS, Math.max(t, nowS));
    const resolution = Math.max(60, stepS / CANDLE_POINTS);
    const points = [this.price(asset, t)];
    for (let s = Math.floor(t / resolution) * resolution + resolution; s < end; s += resolution) points.push(this.price(asset, s));
    points.push(this.price(asset, end));
    const volume = (stepS / 60) * 50 * (0.5 + hash32(this.seed, `vol:${asset}@${t}/${stepS}`) / 2 ** 32) * ((end - t) / stepS);
    const round = (n: number) => roundPrice(n);
    return {
      t,
      o: round(points[0]!),
      h: round(Math.max(...points)),
      l: round(Math.min(...points)),
      c: round(points.at(-1)!),
      v: roundSig(volume, 6),
    };
  }

  /** Candles of `stepS` aligned to multiples of it, opening in [from, to] and not after `nowS`; `weekdays` skips weekends. */
  bars(asset: string, stepS: number, from: number, to: number, options: { weekdays?: boolean; nowS?: number } = {}): Candle[] {
    const out: Candle[] = [];
    const last = Math.min(to, options.nowS ?? Infinity);
    for (let t = Math.ceil(from / stepS) * stepS; t <= last; t += stepS) {
      const day = new Date(t * 1000).getUTCDay();
      if (options.weekdays && (day === 0 || day === 6)) continue;
      out.push(this.candle(asset, t, stepS, options.nowS));
    }
    return out;
  }

  /** The daily values (log or additive) from FIRST_DAY through `day + 1`, extended on demand. */
  private dayValue(key: string, spec: AssetSpec, day: number): number {
    let values = this.days.get(key);
    if (!values) this.days.set(key, (values = []));
    const index = Math.max(0, day - FIRST_DAY);
    const base = spec.additive ? spec.level : Math.log(spec.level);
    const mean = (d: number) => base + ((spec.driftPerYear ?? 0) * (d - DRIFT_FROM_DAY)) / 365.25;
    if (values.length <= index) {
      // The stream restarts from the series' start: the walk is the same however far it was extended before.
      const draw = normals(hash32(this.seed, `days:${key}`));
      const walk: number[] = [];
      const stationary = spec.dailyVol * Math.sqrt(spec.reversionDays / 2);
      walk.push(mean(FIRST_DAY) + stationary * draw());
      for (let i = 1; i <= index + 366; i++) {
        const previous = walk[i - 1]!;
        walk.push(previous + (mean(FIRST_DAY + i - 1) - previous) / spec.reversionDays + spec.dailyVol * draw());
      }
      this.days.set(key, (values = walk));
    }
    return values[index]!;
  }

  private hours(key: string, spec: AssetSpec, day: number): Float64Array {
    return this.cached(`${key}|${day}`, () => {
      const draw = normals(hash32(this.seed, `hours:${key}@${day}`));
      return bridge(this.dayValue(key, spec, day), this.dayValue(key, spec, day + 1), 24, spec.dailyVol / Math.sqrt(24), draw);
    });
  }

  private minutes(key: string, spec: AssetSpec, day: number, hour: number): Float64Array {
    return this.cached(`${key}|${day}|${hour}`, () => {
      const hours = this.hours(key, spec, day);
      const draw = normals(hash32(this.seed, `minutes:${key}@${day}/${hour}`));
      return bridge(hours[hour]!, hours[hour + 1]!, 60, spec.dailyVol / Math.sqrt(1440), draw);
    });
  }

  private cached(key: string, make: () => Float64Array): Float64Array {
    let values = this.fine.get(key);
    if (!values) {
      if (this.fine.size >= MAX_CACHED) this.fine.clear();
      this.fine.set(key, (values = make()));
    }
    return values;
  }
}

/** Six significant digits, at most ten decimals: 90 123.4, 2 912.55, 0.162345. */
export const roundPrice = (n: number): number => Number(roundSig(n, n >= 1e5 ? 7 : 6).toFixed(10));
