import Type from 'typebox';

/** Open-Meteo air-quality API with `current=pm2_5,nitrogen_dioxide,ozone` (CAMS model values, µg/m³). */
export const OpenMeteoAir = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  /** The zone's offset from UTC: `current.time` is local wall time in the zone the request named. */
  utc_offset_seconds: Type.Optional(Type.Integer()),
  current: Type.Optional(
    Type.Object({
      time: Type.String(),
      pm2_5: Type.Union([Type.Number(), Type.Null()]),
      nitrogen_dioxide: Type.Union([Type.Number(), Type.Null()]),
      ozone: Type.Union([Type.Number(), Type.Null()]),
    }),
  ),
});
export type OpenMeteoAir = Type.Static<typeof OpenMeteoAir>;
