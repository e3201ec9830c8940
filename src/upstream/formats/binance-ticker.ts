import Type from 'typebox';

/** Binance spot `/api/v3/ticker/24hr?symbols=[…]` (FULL): one object per pair, every number as a string, times in ms. */
export const Ticker24h = Type.Array(
  Type.Object({
    symbol: Type.String(),
    lastPrice: Type.String(),
    priceChangePercent: Type.String(),
    quoteVolume: Type.String(),
    closeTime: Type.Integer(),
  }),
);
export type Ticker24h = Type.Static<typeof Ticker24h>;
