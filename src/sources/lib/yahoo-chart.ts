import Type from 'typebox';

/** Yahoo's v8 chart response, shared by stock-quote and the stock backtest candles. Arrays may hold nulls (halted bars). */
const Nullable = Type.Array(Type.Union([Type.Number(), Type.Null()]));

export const YahooChart = Type.Object({
  chart: Type.Object({
    result: Type.Union([
      Type.Null(),
      Type.Array(
        Type.Object({
          meta: Type.Object({
            symbol: Type.String(),
            currency: Type.Optional(Type.String()),
            exchangeName: Type.Optional(Type.String()),
            regularMarketPrice: Type.Optional(Type.Number()),
            regularMarketTime: Type.Optional(Type.Integer()),
            chartPreviousClose: Type.Optional(Type.Number()),
          }),
          timestamp: Type.Optional(Type.Array(Type.Integer())),
          indicators: Type.Object({ quote: Type.Array(Type.Object({ open: Nullable, high: Nullable, low: Nullable, close: Nullable, volume: Nullable })) }),
        }),
      ),
    ]),
  }),
});
export type YahooChart = Type.Static<typeof YahooChart>;
