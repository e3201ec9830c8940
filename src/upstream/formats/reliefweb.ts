import Type from 'typebox';

/** ReliefWeb v2 `reports` with `fields.include` title, url_alias, url, date.created. */
export const Reports = Type.Object({
  data: Type.Array(
    Type.Object({
      fields: Type.Object({
        title: Type.String(),
        url_alias: Type.Optional(Type.String()),
        url: Type.String(),
        date: Type.Object({ created: Type.String() }),
      }),
    }),
  ),
});
export type Reports = Type.Static<typeof Reports>;
