import { noData } from '../upstream/errors.js';
import { roundTo } from '../core/numbers.js';
import { clientCredentialsGrant, withBearer } from './lib/bearer-token.js';
import { Point, States } from '../upstream/formats/adsb.js';
import { BOX_EXAMPLE, boxKey, centre, parseBox, pointQuery, type Box } from './lib/bbox.js';
import { defineSource, type FetchContext, type Row } from './define.js';

const MAX_FLIGHTS = 200;
const FT_M = 0.3048;
const KT_MS = 0.514444;
const FPM_MS = 0.00508;

const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
/** An imperial value in SI units, rounded; null when absent. */
const si = (v: unknown, factor: number, digits: number) => (typeof v === 'number' ? roundTo(v * factor, digits) : null);

/** Flights nearest the box centre first (so a cap keeps the middle of the box), at most MAX_FLIGHTS. */
function nearestFirst(box: Box, rows: Row[]): Row[] {
  const c = centre(box);
  const d = (r: Row) => ((r.lat as number) - c.lat) ** 2 + (((r.lon as number) - c.lon) * Math.cos((c.lat * Math.PI) / 180)) ** 2;
  const inside = (r: Row) => {
    const [lat, lon] = [r.lat as number, r.lon as number];
    return lat >= box.lamin && lat <= box.lamax && lon >= box.lomin && lon <= box.lomax;
  };
  const inBox = rows.filter(inside);
  if (inBox.length === 0) throw noData('no aircraft reported in this box');
  return inBox.sort((a, b) => d(a) - d(b) || String(a.icao24).localeCompare(String(b.icao24))).slice(0, MAX_FLIGHTS);
}

export function fromOpenSky(raw: States, box: Box): Row[] {
  const rows = (raw.states ?? []).flatMap((s) => {
    const [lon, lat] = [num(s[5]), num(s[6])];
    if (lat === null || lon === null) return [];
    return [
      {
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
      },
    ];
  });
  return nearestFirst(box, rows);
}

export function fromAdsb(raw: Point, box: Box): Row[] {
  const asOf = Math.floor(raw.now / 1000);
  const rows = raw.ac.flatMap((a) => {
    if (a.lat === undefined || a.lon === undefined) return [];
    const ground = a.alt_baro === 'ground';
    return [
      {
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
      },
    ];
  });
  return nearestFirst(box, rows);
}

function openSky(box: Box, ctx: FetchContext): Promise<Row[]> {
  const auth = ctx.upstream('opensky-auth');
  const buy = clientCredentialsGrant(auth, '/auth/realms/opensky-network/protocol/openid-connect/token', ctx.deadline);
  const states = (token: string) =>
    ctx.http.json<States>('/api/states/all', States, {
      deadline: ctx.deadline,
      query: { ...box },
      headers: { authorization: `Bearer ${token}` },
    });
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
  example: BOX_EXAMPLE,
  desc: '`<lamin>,<lomin>,<lamax>,<lomax>`; flights in a bounding box',
  parseQ: parseBox,
  keyOf: boxKey,
  ttlSeconds: 30,
  deadlineMs: 6000,
  upstreams: { opensky: openSky, 'adsb-lol': adsb, 'airplanes-live': adsb },
});
