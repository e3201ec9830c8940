import { noData } from '../upstream/errors.js';
import { latLon, latLonKey, type LatLon } from './lib/q.js';
import { defineSource, type FetchContext, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { Latest, Locations, type Station } from '../upstream/formats/openaq.js';
import { OpenMeteoAir } from '../upstream/formats/open-meteo-air.js';
import { isPollutant, toUgm3, type Pollutant } from './lib/air-units.js';

const RADIUS_M = 10_000;
const MAX_STATIONS = 3;
/** A "latest" value older than this is a dead sensor, not a current measurement. */
const FRESH_S = 24 * 3600;
/** The nearest stations that measure a pollutant we report and have reported within a day. */
export function nearestStations(raw: Locations, nowS: number): Station[] {
  return raw.results
    .filter((s) => s.sensors.some((x) => isPollutant(x.parameter.name)))
    .filter((s) => !s.datetimeLast || nowS - parseUnixSeconds(s.datetimeLast.utc) <= FRESH_S)
    .sort((a, b) => (a.distance ?? Infinity) - (b.distance ?? Infinity))
    .slice(0, MAX_STATIONS);
}

/** One row per station: its fresh readings joined to their sensors' parameters (latest rows carry only the sensor id). */
export function stationRow(station: Station, latest: Latest, nowS: number): Row | null {
  const values: Partial<Record<Pollutant, number>> = {};
  let asOf = 0;
  for (const reading of latest.results) {
    const parameter = station.sensors.find((s) => s.id === reading.sensorsId)?.parameter;
    const at = parseUnixSeconds(reading.datetime.utc);
    if (reading.value === null || !parameter || !isPollutant(parameter.name)) continue;
    if (nowS - at > FRESH_S || values[parameter.name] !== undefined) continue;
    const ugm3 = toUgm3(parameter.name, reading.value, parameter.units);
    if (ugm3 === null) continue;
    values[parameter.name] = ugm3;
    asOf = Math.max(asOf, at);
  }
  if (asOf === 0) return null;
  return {
    station_id: station.id,
    station_name: station.name,
    lat: station.coordinates.latitude,
    lon: station.coordinates.longitude,
    distance_m: station.distance == null ? null : Math.round(station.distance),
    pm25_ugm3: values.pm25 ?? null,
    no2_ugm3: values.no2 ?? null,
    o3_ugm3: values.o3 ?? null,
    modelled: false,
    as_of: asOf,
  };
}

async function openAq({ lat, lon }: LatLon, { http, deadline, clock }: FetchContext): Promise<Row[]> {
  const nowS = Math.floor(clock.now() / 1000);
  const query = { coordinates: `${lat},${lon}`, radius: RADIUS_M, limit: 100 };
  const locations = await http.json<Locations>('/v3/locations', Locations, { deadline, query });
  const stations = nearestStations(locations, nowS);
  const latest = await Promise.all(stations.map((s) => http.json<Latest>(`/v3/locations/${s.id}/latest`, Latest, { deadline })));
  const rows = stations.map((s, i) => stationRow(s, latest[i]!, nowS)).filter((r): r is Row => r !== null);
  if (rows.length === 0) throw noData('no station within 10 km reported PM2.5, NO2 or O3 in the last day');
  return rows;
}

/** The CAMS model value at the grid cell (no stations): `time` is zone-less local time, UTC plus `utc_offset_seconds`. */
export function fromOpenMeteo(raw: OpenMeteoAir): Row[] {
  const c = raw.current;
  if (!c || [c.pm2_5, c.nitrogen_dioxide, c.ozone].every((v) => v === null)) {
    throw noData('Open-Meteo sent no current air quality');
  }
  return [
    {
      station_id: null,
      station_name: null,
      lat: raw.latitude,
      lon: raw.longitude,
      distance_m: null,
      pm25_ugm3: c.pm2_5,
      no2_ugm3: c.nitrogen_dioxide,
      o3_ugm3: c.ozone,
      modelled: true,
      as_of: parseUnixSeconds(`${c.time}Z`) - (raw.utc_offset_seconds ?? 0),
    },
  ];
}

/**
 * Rows: station_id, station_name, lat, lon, distance_m, pm25_ugm3, no2_ugm3, o3_ugm3 (µg/m³; ppm/ppb converted at 25 °C),
 * modelled (true for the Open-Meteo CAMS fallback, one row without a station); OpenAQ: the 3 nearest stations within 10 km.
 */
export default defineSource<LatLon>({
  type: 'air-quality',
  categories: ['health', 'environment', 'weather'],
  qShape: '<lat>,<lon>',
  example: '48.8566,2.3522',
  desc: '`<lat>,<lon>`; PM2.5, NO2, O3 measurements within a 10 km radius',
  parseQ: latLon,
  keyOf: latLonKey,
  ttlSeconds: 1800,
  deadlineMs: 6000,
  upstreams: {
    openaq: openAq,
    'open-meteo-air': async ({ lat, lon }, { http, deadline }) =>
      fromOpenMeteo(
        await http.json<OpenMeteoAir>('/v1/air-quality', OpenMeteoAir, {
          deadline,
          query: { latitude: lat, longitude: lon, current: 'pm2_5,nitrogen_dioxide,ozone', timezone: 'UTC' },
        }),
      ),
  },
});
