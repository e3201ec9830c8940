import Type from 'typebox';

/** DefiLlama `/stablecoins?includePrices=true`: every pegged asset with its circulating supply per peg currency. */
export const Stablecoins = Type.Object({
  peggedAssets: Type.Array(
    Type.Object({
      name: Type.String(),
      symbol: Type.String(),
      pegType: Type.String(),
      pegMechanism: Type.Optional(Type.String()),
      circulating: Type.Record(Type.String(), Type.Number()),
      price: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    }),
  ),
});
export type Stablecoins = Type.Static<typeof Stablecoins>;
