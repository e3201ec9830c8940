import Type from 'typebox';

/** Reddit's listing JSON (`/r/<sub>/hot`): `data.children[].data` posts. */
export const Listing = Type.Object({
  data: Type.Object({
    children: Type.Array(
      Type.Object({
        data: Type.Object({
          id: Type.String(),
          title: Type.String(),
          subreddit: Type.String(),
          author: Type.String(),
          score: Type.Number(),
          num_comments: Type.Number(),
          permalink: Type.String(),
          url: Type.Optional(Type.String()),
          created_utc: Type.Number(),
          stickied: Type.Boolean(),
          over_18: Type.Boolean(),
        }),
      }),
    ),
  }),
});
export type Listing = Type.Static<typeof Listing>;
