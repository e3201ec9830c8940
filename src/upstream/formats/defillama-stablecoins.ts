import Type from 'typebox';
import { LenientArray } from '../validate.js';

/**
 * DefiLlama `/stablecoins?includePrices=true`: every pegged asset with its circulating supply per peg currency; an asset
 * that does not fit is left out and counted.
 */
export const Stablecoins = Type.Object({
  peggedAssets: LenientArray(
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
