import Type from 'typebox';

/** OpenAQ v3 `/v3/locations?coordinates=&radius=`: stations with their sensors' parameters. */
export const Locations = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.Union([Type.String(), Type.Null()]),
      coordinates: Type.Object({ latitude: Type.Number(), longitude: Type.Number() }),
      distance: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      datetimeLast: Type.Optional(Type.Union([Type.Object({ utc: Type.String() }), Type.Null()])),
      sensors: Type.Array(Type.Object({ id: Type.Integer(), parameter: Type.Object({ name: Type.String(), units: Type.String() }) })),
    }),
  ),
});
export type Locations = Type.Static<typeof Locations>;
export type Station = Locations['results'][number];

/** `/v3/locations/{id}/latest`: one reading per sensor, carrying only the sensor id. */
export const Latest = Type.Object({
  results: Type.Array(
    Type.Object({
      datetime: Type.Object({ utc: Type.String() }),
      value: Type.Union([Type.Number(), Type.Null()]),
      sensorsId: Type.Integer(),
    }),
  ),
});
export type Latest = Type.Static<typeof Latest>;
