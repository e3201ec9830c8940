import Type from 'typebox';

/** CoinGecko `/api/v3/search?query=`: coins whose name or symbol matches, largest market cap first. */
export const CoinSearch = Type.Object({
  coins: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      symbol: Type.String(),
      market_cap_rank: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});
export type CoinSearch = Type.Static<typeof CoinSearch>;
