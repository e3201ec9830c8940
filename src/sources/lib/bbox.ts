/** A latitude/longitude bounding box as a q (flights-near), with the circle that covers it. */

import { invalidQ } from '../../core/errors.js';
import { roundTo } from '../../core/numbers.js';
import { whyNot } from './q.js';

export interface Box {
  lamin: number;
  lomin: number;
  lamax: number;
  lomax: number;
}

const SHAPE = '<lamin>,<lomin>,<lamax>,<lomax> (degrees, lamin < lamax, lomin < lomax)';
export const BOX_EXAMPLE = '45.8,5.9,47.8,10.5';
const NUMBER = /^-?\d+(\.\d+)?$/;
const MAX_RADIUS_NM = 250;
const NM_M = 1852;

export function parseBox(q: string): Box {
  const parts = q.split(',').map((s) => s.trim());
  const bad = (why: string) => invalidQ(SHAPE, BOX_EXAMPLE, why);
  if (parts.length !== 4 || !parts.every((p) => NUMBER.test(p))) {
    throw bad(whyNot(q, 'four comma-separated numbers'));
  }
  const [lamin, lomin, lamax, lomax] = parts.map(Number) as [number, number, number, number];
  if ([lamin, lamax].some((lat) => Math.abs(lat) > 90)) throw bad('latitudes must be within [-90, 90]');
  if ([lomin, lomax].some((lon) => Math.abs(lon) > 180)) throw bad('longitudes must be within [-180, 180]');
  if (lamin >= lamax || lomin >= lomax) throw bad('lamin must be below lamax and lomin below lomax');
  return { lamin, lomin, lamax, lomax };
}

export const boxKey = (b: Box) => [b.lamin, b.lomin, b.lamax, b.lomax].map((n) => roundTo(n, 4)).join(',');

export const centre = (b: Box) => ({ lat: (b.lamin + b.lamax) / 2, lon: (b.lomin + b.lomax) / 2 });

/** The circle around the box: centre plus half the diagonal in nautical miles (capped at the API's 250). */
export function pointQuery(box: Box): { lat: number; lon: number; radiusNm: number } {
  const { lat, lon } = centre(box);
  const dLat = ((box.lamax - box.lamin) * Math.PI) / 180;
  const dLon = ((box.lomax - box.lomin) * Math.PI * Math.cos((lat * Math.PI) / 180)) / 180;
  const halfDiagonalM = (Math.hypot(dLat, dLon) / 2) * 6_371_000;
  return { lat: roundTo(lat, 4), lon: roundTo(lon, 4), radiusNm: Math.min(MAX_RADIUS_NM, Math.ceil(halfDiagonalM / NM_M)) };
}
