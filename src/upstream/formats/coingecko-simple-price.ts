import Type from 'typebox';

/** CoinGecko `/api/v3/simple/price?vs_currencies=usd&include_…`: coin id → price fields (unknown ids are left out). */
const Price = Type.Object({
  usd: Type.Number(),
  usd_market_cap: Type.Optional(Type.Number()),
  usd_24h_vol: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  usd_24h_change: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  last_updated_at: Type.Optional(Type.Integer()),
});
export const SimplePrice = Type.Record(Type.String(), Price);
export type SimplePrice = Type.Static<typeof SimplePrice>;
