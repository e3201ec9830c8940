import { roundTo } from '../../core/numbers.js';
import { between, hex, intBetween, pick } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';

/**
 * Air traffic of the demo world: every 1° cell launches two to ten cruising flights each 20-minute slot, which fly
 * straight on a seeded heading at airliner speed for the slot and land out of the map when it ends. A position at any
 * instant is a pure function of the flight, so polls seconds apart see the same aircraft a little further on.
 */
const SLOT_S = 20 * 60;
/** How far (degrees) a flight can get from its cell in one slot. */
const REACH_DEG = 3;
const AIRLINES: [string, string][] = [
  ['DLH', 'Germany'],
  ['SWR', 'Switzerland'],
  ['AFR', 'France'],
  ['BAW', 'United Kingdom'],
  ['KLM', 'Kingdom of the Netherlands'],
  ['EZY', 'United Kingdom'],
  ['RYR', 'Ireland'],
  ['UAL', 'United States'],
  ['DAL', 'United States'],
  ['AAL', 'United States'],
  ['ACA', 'Canada'],
  ['QFA', 'Australia'],
  ['SIA', 'Singapore'],
  ['UAE', 'United Arab Emirates'],
  ['THY', 'Turkey'],
];

interface Flight {
  key: string;
  lat0: number;
  lon0: number;
  headingDeg: number;
  speedMs: number;
  altitudeM: number;
  launch: number;
}

function flightsOf(seed: number, latCell: number, lonCell: number, slot: number): Flight[] {
  const where = `${latCell},${lonCell}@${slot}`;
  return Array.from({ length: intBetween(seed, `flights:${where}`, 2, 10) }, (_, i) => ({
    key: `${where}/${i}`,
    lat0: latCell + between(seed, `lat:${where}/${i}`, 0, 1),
    lon0: lonCell + between(seed, `lon:${where}/${i}`, 0, 1),
    headingDeg: between(seed, `heading:${where}/${i}`, 0, 360),
    speedMs: between(seed, `speed:${where}/${i}`, 210, 255),
    altitudeM: Math.round(between(seed, `alt:${where}/${i}`, 29, 41)) * 304.8,
    launch: slot * SLOT_S,
  }));
}

function position(f: Flight, t: number): { lat: number; lon: number } {
  const metres = f.speedMs * (t - f.launch);
  const rad = (f.headingDeg * Math.PI) / 180;
  const lat = f.lat0 + (metres * Math.cos(rad)) / 111_320;
  return { lat, lon: f.lon0 + (metres * Math.sin(rad)) / (111_320 * Math.cos((f.lat0 * Math.PI) / 180)) };
}

/** OpenSky `/api/states/all` in a bounding box: state vectors as arrays, with the time of the snapshot. */
function states(req: WorldRequest, world: DemoWorld): unknown {
  const [lamin = 0, lomin = 0, lamax = 0, lomax = 0] = ['lamin', 'lomin', 'lamax', 'lomax'].map((k) => Number(req.params.get(k)));
  const at = req.nowS - (req.nowS % 5);
  const slot = Math.floor(at / SLOT_S);
  const vectors: unknown[][] = [];
  for (let a = Math.floor(lamin - REACH_DEG); a <= lamax + REACH_DEG; a++) {
    for (let b = Math.floor(lomin - REACH_DEG); b <= lomax + REACH_DEG; b++) {
      for (const f of flightsOf(world.seed, a, b, slot)) {
        const { lat, lon } = position(f, at);
        if (lat < lamin || lat > lamax || lon < lomin || lon > lomax) continue;
        const [airline, country] = pick(world.seed, `airline:${f.key}`, AIRLINES);
        const callsign = `${airline}${intBetween(world.seed, `number:${f.key}`, 10, 9999)}`.padEnd(8, ' ');
        const icao24 = hex(world.seed, `icao:${f.key}`, 6);
        const geo = roundTo(f.altitudeM + 150, 2);
        vectors.push([
          icao24,
          callsign,
          country,
          at - 1,
          at,
          roundTo(lon, 4),
          roundTo(lat, 4),
          roundTo(f.altitudeM, 2),
          false,
          roundTo(f.speedMs, 2),
          roundTo(f.headingDeg, 1),
          0,
          null,
          geo,
          intBetween(world.seed, `squawk:${f.key}`, 512, 4095).toString(8).padStart(4, '0'),
          false,
          0,
        ]);
      }
    }
  }
  return { time: at, states: vectors };
}

export const SKY_ROUTES: Route[] = [{ host: 'opensky', path: /^\/api\/states\/all$/, answer: states }];
