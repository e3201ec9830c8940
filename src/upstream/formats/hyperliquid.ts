import Type from 'typebox';

/**
 * Hyperliquid's info API (POST /info). `metaAndAssetCtxs` answers `[meta, assetCtxs]`: the perpetuals universe and,
 * at the same positions, each asset's live context (hourly funding rate and mark price as decimal strings).
 * `fundingHistory` lists settled hourly rates, `time` in ms.
 */
export const MetaAndAssetCtxs = Type.Tuple([
  Type.Object({
    universe: Type.Array(Type.Object({ name: Type.String(), isDelisted: Type.Optional(Type.Boolean()) })),
  }),
  Type.Array(Type.Object({ funding: Type.String(), markPx: Type.String() })),
]);
export type MetaAndAssetCtxs = Type.Static<typeof MetaAndAssetCtxs>;

export const FundingHistory = Type.Array(Type.Object({ coin: Type.String(), fundingRate: Type.String(), time: Type.Integer() }));
export type FundingHistory = Type.Static<typeof FundingHistory>;
