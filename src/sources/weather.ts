import Type from 'typebox';
import { roundTo } from '../core/numbers.js';
import { noData } from '../upstream/errors.js';
import { latLon, latLonKey, type LatLon } from './lib/q.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';

const OpenMeteo = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  current: Type.Optional(
    Type.Object({
      time: Type.Integer(),
      temperature_2m: Type.Number(),
      wind_speed_10m: Type.Number(),
      wind_direction_10m: Type.Number(),
    }),
  ),
});
type OpenMeteo = Type.Static<typeof OpenMeteo>;

const MetNo = Type.Object({
  geometry: Type.Object({ coordinates: Type.Array(Type.Number(), { minItems: 2 }) }),
  properties: Type.Object({
    timeseries: Type.Array(
      Type.Object({
        time: Type.String(),
        data: Type.Object({
          instant: Type.Object({
            details: Type.Object({ air_temperature: Type.Number(), wind_speed: Type.Number(), wind_from_direction: Type.Number() }),
          }),
        }),
      }),
    ),
  }),
});
type MetNo = Type.Static<typeof MetNo>;

export function fromOpenMeteo(raw: OpenMeteo): Row[] {
  const c = raw.current;
  if (!c) throw noData('Open-Meteo sent no current conditions');
  return [
    {
      lat: raw.latitude,
      lon: raw.longitude,
      temp_c: c.temperature_2m,
      wind_kmh: c.wind_speed_10m,
      wind_dir_deg: c.wind_direction_10m,
      as_of: c.time,
    },
  ];
}

/** MET Norway reports wind in m/s; rows use km/h like Open-Meteo. */
export function fromMetNo(raw: MetNo): Row[] {
  const [lon, lat] = raw.geometry.coordinates as [number, number];
  const now = raw.properties.timeseries[0];
  if (!now) throw noData('MET Norway sent an empty time series');
  const d = now.data.instant.details;
  const kmh = roundTo(d.wind_speed * 3.6, 1);
  return [{ lat, lon, temp_c: d.air_temperature, wind_kmh: kmh, wind_dir_deg: d.wind_from_direction, as_of: parseUnixSeconds(now.time) }];
}

export default defineSource<LatLon>({
  type: 'weather',
  categories: ['weather'],
  qShape: '<lat>,<lon>',
  example: '40.71,-74.01',
  desc: '`<lat>,<lon>`; current temperature and wind',
  parseQ: latLon,
  keyOf: latLonKey,
  ttlSeconds: 300,
  deadlineMs: 4000,
  upstreams: {
    'open-meteo': async ({ lat, lon }, { http, deadline }) =>
      fromOpenMeteo(
        await http.json<OpenMeteo>('/v1/forecast', OpenMeteo, {
          deadline,
          query: { latitude: lat, longitude: lon, current: 'temperature_2m,wind_speed_10m,wind_direction_10m', timeformat: 'unixtime' },
        }),
      ),
    'met-no': async ({ lat, lon }, { http, deadline }) =>
      fromMetNo(await http.json<MetNo>('/weatherapi/locationforecast/2.0/compact', MetNo, { deadline, query: { lat, lon } })),
  },
});
