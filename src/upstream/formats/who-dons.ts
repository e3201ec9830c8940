import Type from 'typebox';

const Nullable = Type.Union([Type.String(), Type.Null()]);

/** WHO Disease Outbreak News OData feed (`/api/news/diseaseoutbreaknews`). */
export const Dons = Type.Object({
  value: Type.Array(
    Type.Object({
      Title: Type.String(),
      UrlName: Type.String(),
      PublicationDate: Type.String(),
      DonId: Type.Optional(Nullable),
      OverrideTitle: Type.Optional(Nullable),
      Summary: Type.Optional(Nullable),
    }),
  ),
});
export type Dons = Type.Static<typeof Dons>;
