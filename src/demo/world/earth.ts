import { roundTo } from '../../core/numbers.js';
import type { Market } from '../market.js';
import { between, hash32, intBetween, uniform } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';
import { SKY_ROUTES } from './sky.js';

/**
 * Weather and air of the demo world, computed from the coordinates and the time. Temperature: a mean falling with
 * latitude, a season (coldest late January in the north, late July in the south), a day that peaks at 15:00 local
 * solar time, and a seeded weather walk per 1° cell (fronts that come and go over days). Wind: walks per cell around
 * the westerlies. Air: seeded monitoring stations per 0.1° cell with PM2.5, NO2 and O3 that follow rush hours and the
 * afternoon sun. Nearby points share their cell's weather; distant ones differ.
 */
const DAY_S = 86_400;
const YEAR_DAYS = 365.25;

const cell = (lat: number, lon: number) => `${Math.floor(lat)},${Math.floor(lon)}`;
const solarHour = (lon: number, t: number) => ((((t % DAY_S) / 3600 + lon / 15) % 24) + 24) % 24;
const dayOfYear = (t: number) => (t / DAY_S) % YEAR_DAYS;

/** Air temperature at 2 m, °C. */
function temperatureC(market: Market, lat: number, lon: number, t: number): number {
  const mean = 28 - 0.4 * Math.max(0, Math.abs(lat) - 12);
  const season = -Math.cos((2 * Math.PI * (dayOfYear(t) - 20)) / YEAR_DAYS) * Math.sign(lat) * 0.25 * Math.abs(lat);
  const day = 4 * Math.cos((2 * Math.PI * (solarHour(lon, t) - 15)) / 24);
  return mean + season + day + market.price(`wx:${cell(lat, lon)}`, t);
}

function wind(market: Market, lat: number, lon: number, t: number): { kmh: number; deg: number } {
  const kmh = Math.abs(market.price(`wind:${cell(lat, lon)}`, t));
  const deg = ((market.price(`winddir:${cell(lat, lon)}`, t) % 360) + 360) % 360;
  return { kmh, deg };
}

const gridPoint = (x: number) => roundTo(Math.round(x / 0.0625) * 0.0625 + 0.003, 6);
const elevation = (seed: number, lat: number, lon: number) => intBetween(seed, `elevation:${cell(lat, lon)}`, 0, 400);
const coordinates = (req: WorldRequest) => ({ lat: Number(req.params.get('latitude')), lon: Number(req.params.get('longitude')) });

/** Open-Meteo's current conditions (15-minute model steps) in its forecast response shape. */
function forecast(req: WorldRequest, world: DemoWorld): unknown {
  const { lat, lon } = coordinates(req);
  const at = Math.floor(req.nowS / 900) * 900;
  const { kmh, deg } = wind(world.market, lat, lon, at);
  const values: Record<string, [number, string]> = {
    temperature_2m: [roundTo(temperatureC(world.market, lat, lon, at), 1), '°C'],
    wind_speed_10m: [roundTo(kmh, 1), 'km/h'],
    wind_direction_10m: [Math.round(deg), '°'],
    relative_humidity_2m: [Math.round(between(world.seed, `rh:${cell(lat, lon)}@${at}`, 45, 95)), '%'],
  };
  const asked = (req.params.get('current') ?? '').split(',').filter((k) => k in values);
  const unix = req.params.get('timeformat') === 'unixtime';
  return {
    latitude: gridPoint(lat),
    longitude: gridPoint(lon),
    generationtime_ms: 0.04,
    utc_offset_seconds: 0,
    timezone: 'GMT',
    timezone_abbreviation: 'GMT',
    elevation: elevation(world.seed, lat, lon),
    current_units: {
      time: unix ? 'unixtime' : 'iso8601',
      interval: 'seconds',
      ...Object.fromEntries(asked.map((k) => [k, values[k]![1]])),
    },
    current: {
      time: unix ? at : new Date(at * 1000).toISOString().slice(0, 16),
      interval: 900,
      ...Object.fromEntries(asked.map((k) => [k, values[k]![0]])),
    },
  };
}

type Pollutant = 'pm25' | 'no2' | 'o3';
const POLLUTANTS: Pollutant[] = ['pm25', 'no2', 'o3'];

/** µg/m³ at a point: a seeded regional level, rush hours for PM2.5 and NO2, the afternoon sun for O3, and a walk. */
function pollution(market: Market, p: Pollutant, lat: number, lon: number, t: number): number {
  const region = 0.6 + 1.2 * uniform(market.seed, `smog:${cell(lat, lon)}`);
  const hour = solarHour(lon, t);
  const rush = Math.exp(-(((hour - 8.5) / 1.5) ** 2)) + Math.exp(-(((hour - 18.5) / 2) ** 2));
  const sun = Math.max(0, Math.cos((2 * Math.PI * (hour - 15)) / 24));
  const base = { pm25: 9 + 6 * rush, no2: 18 + 22 * rush, o3: 25 + 55 * sun }[p];
  return Math.max(1, roundTo(base * region * Math.exp(market.price(`air:${p}:${cell(lat, lon)}`, t) / 10), 1));
}

interface AirStation {
  id: number;
  lat: number;
  lon: number;
  pollutants: Pollutant[];
}

/** Up to two stations per 0.1° cell; the id encodes the cell, so `/latest` finds the station again. */
function stationsIn(seed: number, latCell: number, lonCell: number): AirStation[] {
  const count = intBetween(seed, `stations:${latCell},${lonCell}`, 0, 2);
  return Array.from({ length: count }, (_, k) => ({
    id: ((latCell + 900) * 3600 + (lonCell + 1800)) * 4 + k,
    lat: roundTo((latCell + uniform(seed, `st-lat:${latCell},${lonCell}/${k}`)) / 10, 4),
    lon: roundTo((lonCell + uniform(seed, `st-lon:${latCell},${lonCell}/${k}`)) / 10, 4),
    pollutants: POLLUTANTS.filter((p, i) => i === 0 || hash32(seed, `sensor:${latCell},${lonCell}/${k}/${p}`) % 3 !== 0),
  }));
}

function stationById(seed: number, id: number): AirStation | undefined {
  const k = id % 4;
  const cellCode = Math.floor(id / 4);
  return stationsIn(seed, Math.floor(cellCode / 3600) - 900, (cellCode % 3600) - 1800)[k];
}

const distanceM = (lat1: number, lon1: number, lat2: number, lon2: number) =>
  6_371_000 * Math.hypot(((lat2 - lat1) * Math.PI) / 180, (((lon2 - lon1) * Math.PI) / 180) * Math.cos((lat1 * Math.PI) / 180));
/** OpenAQ stations report the hour that just ended. */
const lastHour = (nowS: number) => Math.floor(nowS / 3600) * 3600;
const sensorId = (station: AirStation, p: Pollutant) => station.id * 10 + POLLUTANTS.indexOf(p);
const PARAMETER: Record<Pollutant, { id: number; displayName: string }> = {
  pm25: { id: 2, displayName: 'PM2.5' },
  no2: { id: 5, displayName: 'NO₂ mass' },
  o3: { id: 3, displayName: 'O₃ mass' },
};

function locations(req: WorldRequest, world: DemoWorld): unknown {
  const [lat = 0, lon = 0] = (req.params.get('coordinates') ?? '').split(',').map(Number);
  const radius = Math.min(Number(req.params.get('radius') ?? 10_000), 25_000);
  const utc = new Date(lastHour(req.nowS) * 1000).toISOString().replace('.000Z', 'Z');
  const found: (AirStation & { distance: number })[] = [];
  for (let a = Math.floor(lat * 10) - 2; a <= Math.floor(lat * 10) + 2; a++) {
    for (let b = Math.floor(lon * 10) - 3; b <= Math.floor(lon * 10) + 3; b++) {
      for (const s of stationsIn(world.seed, a, b)) found.push({ ...s, distance: distanceM(lat, lon, s.lat, s.lon) });
    }
  }
  const results = found
    .filter((s) => s.distance <= radius)
    .map((s) => ({
      id: s.id,
      name: `Demo station ${s.lat.toFixed(2)},${s.lon.toFixed(2)}`,
      locality: null,
      timezone: 'UTC',
      isMobile: false,
      isMonitor: true,
      sensors: s.pollutants.map((p) => ({
        id: sensorId(s, p),
        name: `${p} µg/m³`,
        parameter: { ...PARAMETER[p], name: p, units: 'µg/m³' },
      })),
      coordinates: { latitude: s.lat, longitude: s.lon },
      distance: roundTo(s.distance, 1),
      datetimeFirst: { utc: '2019-01-01T00:00:00Z' },
      datetimeLast: { utc },
    }));
  return { meta: { name: 'openaq-api', website: '/', page: 1, limit: 100, found: results.length }, results };
}

function latest(req: WorldRequest, world: DemoWorld): unknown {
  const station = stationById(world.seed, Number(req.match[1]));
  const at = lastHour(req.nowS);
  const utc = new Date(at * 1000).toISOString().replace('.000Z', 'Z');
  const results = (station?.pollutants ?? []).map((p) => ({
    datetime: { utc },
    value: pollution(world.market, p, station!.lat, station!.lon, at),
    coordinates: { latitude: station!.lat, longitude: station!.lon },
    sensorsId: sensorId(station!, p),
    locationsId: station!.id,
  }));
  return { meta: { name: 'openaq-api', website: '/', page: 1, limit: 100, found: results.length }, results };
}

/** Open-Meteo's CAMS model at the point (air-quality's fallback): the same pollution field, hourly. */
function airModel(req: WorldRequest, world: DemoWorld): unknown {
  const { lat, lon } = coordinates(req);
  const at = lastHour(req.nowS);
  const value = (p: Pollutant) => pollution(world.market, p, lat, lon, at);
  return {
    latitude: gridPoint(lat),
    longitude: gridPoint(lon),
    generationtime_ms: 0.16,
    utc_offset_seconds: 0,
    timezone: 'UTC',
    timezone_abbreviation: 'UTC',
    elevation: elevation(world.seed, lat, lon),
    current_units: { time: 'iso8601', interval: 'seconds', pm2_5: 'μg/m³', nitrogen_dioxide: 'μg/m³', ozone: 'μg/m³' },
    current: {
      time: new Date(at * 1000).toISOString().slice(0, 16),
      interval: 3600,
      pm2_5: value('pm25'),
      nitrogen_dioxide: value('no2'),
      ozone: value('o3'),
    },
  };
}

export const EARTH_ROUTES: Route[] = [
  { host: 'open-meteo', path: /^\/v1\/forecast$/, answer: forecast },
  { host: 'openaq', path: /^\/v3\/locations$/, answer: locations },
  { host: 'openaq', path: /^\/v3\/locations\/(\d+)\/latest$/, answer: latest },
  { host: 'open-meteo-air', path: /^\/v1\/air-quality$/, answer: airModel },
  ...SKY_ROUTES,
];
