import Type from 'typebox';

/** HN Firebase API `/v0/topstories.json`: item ids in front-page order. */
export const TopStories = Type.Array(Type.Integer());
/** `/v0/item/<id>.json`. Deleted or dead items keep their id but lose most fields; the API answers `null` for unknown ids. */
export const Item = Type.Union([
  Type.Null(),
  Type.Object({
    id: Type.Integer(),
    type: Type.Optional(Type.String()),
    by: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    score: Type.Optional(Type.Integer()),
    descendants: Type.Optional(Type.Integer()),
    time: Type.Optional(Type.Integer()),
    deleted: Type.Optional(Type.Boolean()),
    dead: Type.Optional(Type.Boolean()),
  }),
]);
export type Item = Type.Static<typeof Item>;
/** HN Algolia `/api/v1/search`. Algolia sends `url: null` for Ask HN and text posts. */
export const Search = Type.Object({
  hits: Type.Array(
    Type.Object({
      objectID: Type.String(),
      title: Type.String(),
      url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      author: Type.String(),
      points: Type.Union([Type.Integer(), Type.Null()]),
      num_comments: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
      created_at_i: Type.Integer(),
    }),
  ),
});
export type Search = Type.Static<typeof Search>;
