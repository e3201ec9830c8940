import Type from 'typebox';

/** OpenSky `/api/states/all`: state vectors are positional arrays (index 5 is longitude, 6 latitude); `states` is null for an empty box. */
export const States = Type.Object({
  time: Type.Integer(),
  states: Type.Union([Type.Array(Type.Array(Type.Unknown(), { minItems: 17 })), Type.Null()]),
});
export type States = Type.Static<typeof States>;

/** ADSBExchange v2 format (adsb.lol, airplanes.live): imperial units, `alt_baro` may be "ground", `now` in milliseconds. */
export const Point = Type.Object({
  now: Type.Number(),
  ac: Type.Array(
    Type.Object({
      hex: Type.String(),
      flight: Type.Optional(Type.String()),
      lat: Type.Optional(Type.Number()),
      lon: Type.Optional(Type.Number()),
      alt_baro: Type.Optional(Type.Union([Type.Number(), Type.String()])),
      gs: Type.Optional(Type.Number()),
      track: Type.Optional(Type.Number()),
      baro_rate: Type.Optional(Type.Number()),
      squawk: Type.Optional(Type.String()),
      seen: Type.Optional(Type.Number()),
    }),
  ),
});
export type Point = Type.Static<typeof Point>;
