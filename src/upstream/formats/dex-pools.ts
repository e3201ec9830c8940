import Type from 'typebox';

/** DexScreener `/tokens/v1/<chainId>/<addresses>`: every pair holding the token, prices as strings. */
export const DexPairs = Type.Array(
  Type.Object({
    dexId: Type.String(),
    pairAddress: Type.String(),
    baseToken: Type.Object({ address: Type.String() }),
    quoteToken: Type.Object({ address: Type.String() }),
    priceNative: Type.String(),
    priceUsd: Type.Optional(Type.String()),
    liquidity: Type.Optional(Type.Object({ usd: Type.Optional(Type.Number()) })),
  }),
);
export type DexPairs = Type.Static<typeof DexPairs>;

/** GeckoTerminal `/api/v2/networks/<network>/tokens/<address>/pools` (JSON:API): pools with USD prices of both sides. */
export const GtPools = Type.Object({
  data: Type.Array(
    Type.Object({
      attributes: Type.Object({
        address: Type.String(),
        base_token_price_usd: Type.Union([Type.String(), Type.Null()]),
        quote_token_price_usd: Type.Union([Type.String(), Type.Null()]),
        reserve_in_usd: Type.Union([Type.String(), Type.Null()]),
      }),
      relationships: Type.Object({
        base_token: Type.Object({ data: Type.Object({ id: Type.String() }) }),
        dex: Type.Object({ data: Type.Object({ id: Type.String() }) }),
      }),
    }),
  ),
});
export type GtPools = Type.Static<typeof GtPools>;

/** One pool's price for the token, whichever side of the pair it is on. */
export interface PoolPrice {
  dex: string;
  pair_address: string;
  price_usd: number;
  liquidity_usd: number;
}

/** The token asked about; Solana mints are case-sensitive, EVM addresses are not. */
export interface TokenRef {
  chain: string;
  address: string;
}

const same = (a: string, b: string, { chain }: TokenRef) => (chain === 'solana' ? a === b : a.toLowerCase() === b.toLowerCase());

/** `priceUsd` is the base token's; when the token is the quote side its price is priceUsd / priceNative. */
export const fromDexScreener = (token: TokenRef, raw: DexPairs): PoolPrice[] =>
  raw.flatMap((p) => {
    const base = Number(p.priceUsd);
    const price = same(p.baseToken.address, token.address, token)
      ? base
      : same(p.quoteToken.address, token.address, token)
        ? base / Number(p.priceNative)
        : NaN;
    return Number.isFinite(price) && price > 0
      ? [{ dex: p.dexId, pair_address: p.pairAddress, price_usd: price, liquidity_usd: p.liquidity?.usd ?? 0 }]
      : [];
  });

/** GeckoTerminal token ids are `<network>_<address>`. */
export const fromGeckoTerminal = (token: TokenRef, network: string, raw: GtPools): PoolPrice[] =>
  raw.data.flatMap(({ attributes: a, relationships: r }) => {
    const isBase = same(r.base_token.data.id, `${network}_${token.address}`, token);
    const price = Number(isBase ? a.base_token_price_usd : a.quote_token_price_usd);
    return Number.isFinite(price) && price > 0
      ? [{ dex: r.dex.data.id, pair_address: a.address, price_usd: price, liquidity_usd: Number(a.reserve_in_usd ?? 0) }]
      : [];
  });
