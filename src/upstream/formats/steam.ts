import Type from 'typebox';

/** Steam Web API `ISteamChartsService/GetMostPlayedGames/v1`. */
export const Charts = Type.Object({
  response: Type.Object({
    rollup_date: Type.Integer(),
    ranks: Type.Array(
      Type.Object({
        rank: Type.Integer(),
        appid: Type.Integer(),
        last_week_rank: Type.Optional(Type.Integer()),
        peak_in_game: Type.Integer(),
      }),
    ),
  }),
});
export type Charts = Type.Static<typeof Charts>;

/** Steam store `/api/appdetails`, keyed by appid. */
export const AppDetails = Type.Record(
  Type.String(),
  Type.Object({ success: Type.Boolean(), data: Type.Optional(Type.Object({ name: Type.String() })) }),
);
export type AppDetails = Type.Static<typeof AppDetails>;

/** SteamSpy: keyed by appid, so JSON key order (ascending ids) says nothing about rank; `ccu` is yesterday's peak. */
export const SteamSpy = Type.Record(Type.String(), Type.Object({ appid: Type.Integer(), name: Type.String(), ccu: Type.Number() }));
export type SteamSpy = Type.Static<typeof SteamSpy>;
