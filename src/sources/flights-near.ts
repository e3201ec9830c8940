import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { FORM, Grant, clientCredentials, form, withBearer } from './lib/bearer-token.js';
import { defineSource, type FetchContext, type Row } from './define.js';

export interface Box {
  lamin: number;
  lomin: number;
  lamax: number;
  lomax: number;
}

const SHAPE = '<lamin>,<lomin>,<lamax>,<lomax> (degrees, lamin < lamax, lomin < lomax)';
const EXAMPLE = '45.8,5.9,47.8,10.5';
const NUMBER = /^-?\d+(\.\d+)?$/;
const MAX_FLIGHTS = 200;
const MAX_RADIUS_NM = 250;
const FT_M = 0.3048;
const KT_MS = 0.514444;
const FPM_MS = 0.00508;
const NM_M = 1852;

export function parseBox(q: string): Box {
  const parts = q.split(',').map((s) => s.trim());
  if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p))) throw invalidQ(SHAPE, EXAMPLE, q ? `"${q}" is not four comma-separated numbers` : 'q is required');
  const [lamin, lomin, lamax, lomax] = parts.map(Number) as [number, number, number, number];
  if ([lamin, lamax].some((lat) => Math.abs(lat) > 90)) throw invalidQ(SHAPE, EXAMPLE, 'latitudes must be within [-90, 90]');
  if ([lomin, lomax].some((lon) => Math.abs(lon) > 180)) throw invalidQ(SHAPE, EXAMPLE, 'longitudes must be within [-180, 180]');
  if (lamin >= lamax || lomin >= lomax) throw invalidQ(SHAPE, EXAMPLE, 'lamin must be below lamax and lomin below lomax');
  return { lamin, lomin, lamax, lomax };
}

const boxKey = (b: Box) => [b.lamin, b.lomin, b.lamax, b.lomax].map((n) => +n.toFixed(4)).join(',');

/** OpenSky state vectors are positional arrays (index 5 is longitude, 6 latitude); `states` is null for an empty box. */
const States = Type.Object({ time: Type.Integer(), states: Type.Union([Type.Array(Type.Array(Type.Unknown(), { minItems: 17 })), Type.Null()]) });
type States = Type.Static<typeof States>;
/** ADSBExchange v2 format: imperial units, `alt_baro` may be "ground", `now` in milliseconds. */
const Point = Type.Object({
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
type Point = Type.Static<typeof Point>;

const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
/** An imperial value in SI units, rounded; null when absent. */
const si = (v: unknown, factor: number, digits: number) => (typeof v === 'number' ? +(v * factor).toFixed(digits) : null);
const centre = (b: Box) => ({ lat: (b.lamin + b.lamax) / 2, lon: (b.lomin + b.lomax) / 2 });

/** Flights nearest the box centre first (so a cap keeps the middle of the box), at most MAX_FLIGHTS. */
function nearestFirst(box: Box, rows: Row[]): Row[] {
  const c = centre(box);
  const d = (r: Row) => ((r.lat as number) - c.lat) ** 2 + (((r.lon as number) - c.lon) * Math.cos((c.lat * Math.PI) / 180)) ** 2;
  const inBox = rows.filter((r) => (r.lat as number) >= box.lamin && (r.lat as number) <= box.lamax && (r.lon as number) >= box.lomin && (r.lon as number) <= box.lomax);
  if (inBox.length === 0) throw noData('no aircraft reported in this box');
  return inBox.sort((a, b) => d(a) - d(b) || String(a.icao24).localeCompare(String(b.icao24))).slice(0, MAX_FLIGHTS);
}

export function fromOpenSky(raw: States, box: Box): Row[] {
  const rows = (raw.states ?? []).flatMap((s) => {
    const [lon, lat] = [num(s[5]), num(s[6])];
    if (lat === null || lon === null) return [];
    return [{
      icao24: String(s[0]),
      callsign: str(s[1]),
      origin_country: str(s[2]),
      lat,
      lon,
      altitude_m: num(s[7]),
      on_ground: s[8] === true,
      velocity_ms: num(s[9]),
      heading_deg: num(s[10]),
      vertical_rate_ms: num(s[11]),
      squawk: str(s[14]),
      last_seen_at: num(s[4]),
      as_of: raw.time,
    }];
  });
  return nearestFirst(box, rows);
}

export function fromAdsb(raw: Point, box: Box): Row[] {
  const asOf = Math.floor(raw.now / 1000);
  const rows = raw.ac.flatMap((a) => {
    if (a.lat === undefined || a.lon === undefined) return [];
    const ground = a.alt_baro === 'ground';
    return [{
      icao24: a.hex.replace(/^~/, ''),
      callsign: str(a.flight),
      origin_country: null,
      lat: a.lat,
      lon: a.lon,
      altitude_m: ground ? 0 : si(a.alt_baro, FT_M, 1),
      on_ground: ground,
      velocity_ms: si(a.gs, KT_MS, 2),
      heading_deg: a.track ?? null,
      vertical_rate_ms: si(a.baro_rate, FPM_MS, 2),
      squawk: str(a.squawk),
      last_seen_at: a.seen === undefined ? asOf : Math.floor(raw.now / 1000 - a.seen),
      as_of: asOf,
    }];
  });
  return nearestFirst(box, rows);
}

/** The circle around the box: centre plus half the diagonal in nautical miles (capped at the API's 250). */
export function pointQuery(box: Box): { lat: number; lon: number; radiusNm: number } {
  const { lat, lon } = centre(box);
  const dLat = ((box.lamax - box.lamin) * Math.PI) / 180;
  const dLon = ((box.lomax - box.lomin) * Math.PI * Math.cos((lat * Math.PI) / 180)) / 180;
  const halfDiagonalM = (Math.hypot(dLat, dLon) / 2) * 6_371_000;
  return { lat: +lat.toFixed(4), lon: +lon.toFixed(4), radiusNm: Math.min(MAX_RADIUS_NM, Math.ceil(halfDiagonalM / NM_M)) };
}

function openSky(box: Box, ctx: FetchContext): Promise<Row[]> {
  const auth = ctx.upstream('opensky-auth');
  const buy = (credentials: string) =>
    auth.json<Grant>('/auth/realms/opensky-network/protocol/openid-connect/token', Grant, {
      method: 'POST',
      deadline: ctx.deadline,
      headers: FORM,
      body: form({ grant_type: 'client_credentials', ...clientCredentials(credentials) }),
    });
  const states = (token: string) =>
    ctx.http.json<States>('/api/states/all', States, { deadline: ctx.deadline, query: { ...box }, headers: { authorization: `Bearer ${token}` } });
  return withBearer(ctx, auth, buy, states).then((raw) => fromOpenSky(raw, box));
}

const adsb = async (box: Box, { http, deadline }: FetchContext) => {
  const { lat, lon, radiusNm } = pointQuery(box);
  return fromAdsb(await http.json<Point>(`/v2/point/${lat}/${lon}/${radiusNm}`, Point, { deadline }), box);
};

/**
 * Rows: icao24, callsign, origin_country (OpenSky only), lat, lon, altitude_m (barometric), on_ground, velocity_ms,
 * heading_deg, vertical_rate_ms, squawk, last_seen_at (Unix s); nearest the box centre first, up to 200.
 */
export default defineSource<Box>({
  type: 'flights-near',
  categories: ['aviation', 'geo'],
  qShape: '<lamin>,<lomin>,<lamax>,<lomax>',
  example: EXAMPLE,
  desc: '`<lamin>,<lomin>,<lamax>,<lomax>`; flights in a bounding box',
  parseQ: parseBox,
  keyOf: boxKey,
  ttlSeconds: 30,
  deadlineMs: 6000,
  upstreams: { opensky: openSky, 'adsb-lol': adsb, 'airplanes-live': adsb },
});
