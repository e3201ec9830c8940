import Type from 'typebox';

/** alternative.me `/fng/`: the crypto Fear & Greed index; every number is a string and the index is market-wide. */
export const Fng = Type.Object({
  data: Type.Array(Type.Object({ value: Type.String(), value_classification: Type.String(), timestamp: Type.String() })),
});
export type Fng = Type.Static<typeof Fng>;

/**
 * CryptoPanic `/api/developer/v2/posts/`: the developer plan sends title, description, published_at and kind;
 * url and source only on paid plans.
 */
export const Posts = Type.Object({
  results: Type.Array(
    Type.Object({
      title: Type.String(),
      published_at: Type.String(),
      url: Type.Optional(Type.String()),
      original_url: Type.Optional(Type.String()),
      source: Type.Optional(Type.Object({ title: Type.String() })),
    }),
  ),
});
export type Posts = Type.Static<typeof Posts>;
