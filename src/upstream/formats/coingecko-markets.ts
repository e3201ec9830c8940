import Type from 'typebox';
import { LenientArray } from '../validate.js';

/**
 * CoinGecko `/api/v3/coins/markets?vs_currency=usd[&category=<id>]`: coins by market cap with their market data;
 * numbers may be null for coins without a market, and a coin that does not fit is left out and counted.
 */
export const CoinMarkets = LenientArray(
  Type.Object({
    id: Type.String(),
    symbol: Type.String(),
    name: Type.String(),
    current_price: Type.Union([Type.Number(), Type.Null()]),
    market_cap: Type.Union([Type.Number(), Type.Null()]),
    /** ISO 8601. */
    last_updated: Type.Union([Type.String(), Type.Null()]),
  }),
);
export type CoinMarkets = Type.Static<typeof CoinMarkets>;
