import Type from 'typebox';
import type { Candle } from '../../core/candles.js';

/** Binance kline rows (spot and futures): [openTime ms, open, high, low, close, volume, closeTime ms, …], prices as strings. */
export const Klines = Type.Array(Type.Array(Type.Union([Type.Number(), Type.String()]), { minItems: 6 }));
export type Klines = Type.Static<typeof Klines>;

export const klineToCandle = (k: (number | string)[]): Candle => ({
  t: Math.floor(Number(k[0]) / 1000),
  o: Number(k[1]),
  h: Number(k[2]),
  l: Number(k[3]),
  c: Number(k[4]),
  v: Number(k[5]),
});
