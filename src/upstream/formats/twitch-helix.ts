import Type from 'typebox';

/** Helix `/helix/games?name=`: the category with that exact name, if any. */
export const Games = Type.Object({ data: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })) });
export type Games = Type.Static<typeof Games>;

/** Helix `/helix/streams`: live streams, `thumbnail_url` with `{width}`/`{height}` placeholders. */
export const Streams = Type.Object({
  data: Type.Array(
    Type.Object({
      user_id: Type.String(),
      user_login: Type.String(),
      user_name: Type.String(),
      game_name: Type.String(),
      title: Type.String(),
      viewer_count: Type.Integer(),
      started_at: Type.String(),
      language: Type.String(),
      thumbnail_url: Type.String(),
      is_mature: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type Streams = Type.Static<typeof Streams>;
