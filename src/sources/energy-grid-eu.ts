import { readFileSync } from 'node:fs';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { XMLParser } from 'fast-xml-parser';
import { oneOf } from './lib/q.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

/** Countries and the ENTSO-E area whose actual total load we read (DE: the German control area, not the DE-LU zone). */
const ZONES = {
  AT: { name: 'Austria', eic: '10YAT-APG------L' },
  BE: { name: 'Belgium', eic: '10YBE----------2' },
  CH: { name: 'Switzerland', eic: '10YCH-SWISSGRIDZ' },
  CZ: { name: 'Czechia', eic: '10YCZ-CEPS-----N' },
  DE: { name: 'Germany', eic: '10Y1001A1001A83F' },
  ES: { name: 'Spain', eic: '10YES-REE------0' },
  FI: { name: 'Finland', eic: '10YFI-1--------U' },
  FR: { name: 'France', eic: '10YFR-RTE------C' },
  IE: { name: 'Ireland', eic: '10YIE-1001A00010' },
  IT: { name: 'Italy', eic: '10YIT-GRTN-----B' },
  NL: { name: 'Netherlands', eic: '10YNL----------L' },
  PL: { name: 'Poland', eic: '10YPL-AREA-----S' },
} as const;
export type Country = keyof typeof ZONES;
export const COUNTRIES = Object.keys(ZONES) as Country[];

const WINDOW_S = 24 * 3600;
const HOUR_S = 3600;

export interface Reading {
  /** Start of the interval, Unix s. */
  at: number;
  mw: number;
}

const Entry = Type.Object({ country: Type.String(), avg_load_mw: Type.Number(), peak_load_mw: Type.Number(), min_load_mw: Type.Number() });
const DataFile = Type.Object({ version: Type.Integer(), as_of: Type.Integer(), source_note: Type.String(), entries: Type.Array(Entry) });
type DataFile = Type.Static<typeof DataFile>;

let dataFile: DataFile | undefined;
export function curatedData(): DataFile {
  if (dataFile) return dataFile;
  const raw: unknown = JSON.parse(readFileSync(new URL('./data/energy-grid-eu.v1.json', import.meta.url), 'utf8'));
  if (!Compile(DataFile).Check(raw)) throw new Error('energy-grid-eu.v1.json is malformed');
  return (dataFile = raw);
}

const zoneFields = (country: Country) => ({ country, name: ZONES[country].name, bidding_zone: ZONES[country].eic });
const round1 = (n: number) => Math.round(n * 10) / 10;

/** The latest reading, and mean, peak and trough over the 24 hours up to `nowS`. */
export function toRows(country: Country, readings: Reading[], nowS: number): Row[] {
  const recent = readings.filter((r) => r.at > nowS - WINDOW_S && r.at <= nowS).sort((a, b) => a.at - b.at);
  const latest = recent.at(-1);
  if (!latest) throw noData(`no ${country} load readings in the last 24 hours`);
  const values = recent.map((r) => r.mw);
  return [{
    ...zoneFields(country),
    load_mw: latest.mw,
    load_at: latest.at,
    avg_load_mw_24h: round1(values.reduce((sum, v) => sum + v, 0) / values.length),
    peak_load_mw_24h: Math.max(...values),
    min_load_mw_24h: Math.min(...values),
    as_of: latest.at,
  }];
}

// Repeated elements stay arrays even when a document holds one; values stay strings (EIC codes look numeric-ish).
const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => ['TimeSeries', 'Period', 'Point'].includes(name) });
const badXml = (why: string) => new UpstreamError('upstream_bad_response', `ENTSO-E ${why}`);

interface Period {
  timeInterval?: { start?: string };
  resolution?: string;
  Point?: { position?: string; quantity?: string }[];
}
interface EntsoeDoc {
  GL_MarketDocument?: { TimeSeries?: { Period?: Period[] }[] };
  Acknowledgement_MarketDocument?: { Reason?: { code?: string; text?: string } };
}

/** `PT15M`, `PT60M`, `PT1H` → seconds; 0 for anything else. */
const resolutionS = (resolution = '') => {
  const m = /^PT(\d+)([MH])$/.exec(resolution);
  return m ? Number(m[1]) * (m[2] === 'H' ? HOUR_S : 60) : 0;
};

/** Point n of a period starts at `start + (n - 1) × resolution`. */
function periodReadings(period: Period): Reading[] {
  const start = Date.parse(period.timeInterval?.start ?? '') / 1000;
  const step = resolutionS(period.resolution);
  if (!Number.isFinite(start) || step === 0) throw badXml(`sent a period without a usable start or resolution`);
  return (period.Point ?? [])
    .map((p) => ({ at: start + (Number(p.position) - 1) * step, mw: Number(p.quantity) }))
    .filter((r) => Number.isFinite(r.at) && Number.isFinite(r.mw));
}

/** A GL_MarketDocument → readings; an Acknowledgement (often HTTP 200) is "no data" (reason 999) or a refusal. */
export function entsoeReadings(text: string): Reading[] {
  let doc: EntsoeDoc;
  try {
    doc = xml.parse(text) as EntsoeDoc;
  } catch {
    throw badXml('sent a body that is not XML');
  }
  const ack = doc.Acknowledgement_MarketDocument;
  if (ack) {
    if (ack.Reason?.code === '999') throw noData('ENTSO-E has no load data for this area and window');
    throw new UpstreamError('upstream_error', `ENTSO-E refused the query: ${ack.Reason?.text ?? 'no reason given'}`);
  }
  if (!doc.GL_MarketDocument) throw badXml('sent something other than a GL_MarketDocument');
  return (doc.GL_MarketDocument.TimeSeries ?? []).flatMap((ts) => (ts.Period ?? []).flatMap(periodReadings));
}

const PublicPower = Type.Object({
  unix_seconds: Type.Array(Type.Integer()),
  production_types: Type.Array(Type.Object({ name: Type.String(), data: Type.Array(Type.Union([Type.Number(), Type.Null()])) })),
});
type PublicPower = Type.Static<typeof PublicPower>;

/** The `Load` series (looked up case-insensitively); nulls mark intervals not yet published. */
export function energyChartsReadings(raw: PublicPower): Reading[] {
  const load = raw.production_types.find((p) => p.name.toLowerCase() === 'load');
  if (!load) throw noData('Energy-Charts publishes no load series for this country');
  return raw.unix_seconds.flatMap((at, i) => {
    const mw = load.data[i];
    return typeof mw === 'number' ? [{ at, mw }] : [];
  });
}

/** Unix s → ENTSO-E's UTC `yyyyMMddHHmm`. */
const entsoeTime = (s: number) => new Date(s * 1000).toISOString().slice(0, 16).replace(/\D/g, '');

/**
 * Rows (one): country, name, bidding_zone (ENTSO-E EIC), load_mw (latest actual load), load_at (Unix s),
 * avg_load_mw_24h, peak_load_mw_24h, min_load_mw_24h (over the last 24 hours). Curated rows carry a
 * typical November weekday instead: load_mw and load_at null, the file's as_of.
 */
export default defineSource<Country>({
  type: 'energy-grid-eu',
  categories: ['energy', 'power', 'europe'],
  qShape: '<country_code>',
  example: 'DE',
  desc: '`<country_code>`; grid load (curated data, with an optional keyed path)',
  parseQ: oneOf(COUNTRIES, '<country_code>'),
  keyOf: (country) => country,
  ttlSeconds: 900,
  deadlineMs: 6000,
  upstreams: {
    entsoe: async (country, { http, deadline, clock }) => {
      const nowS = Math.floor(clock.now() / 1000);
      const end = Math.ceil(nowS / HOUR_S) * HOUR_S;
      const text = await http.text('/api', {
        deadline,
        query: { documentType: 'A65', processType: 'A16', outBiddingZone_Domain: ZONES[country].eic, periodStart: entsoeTime(end - WINDOW_S), periodEnd: entsoeTime(end) },
      });
      return toRows(country, entsoeReadings(text), nowS);
    },
    'energy-charts': async (country, { http, deadline, clock }) => {
      const nowS = Math.floor(clock.now() / 1000);
      const raw = await http.json<PublicPower>('/public_power', PublicPower, { deadline, query: { country: country.toLowerCase(), start: nowS - WINDOW_S, end: nowS } });
      return toRows(country, energyChartsReadings(raw), nowS);
    },
  },
  curated: (country) => {
    const { as_of, entries } = curatedData();
    const typical = entries.find((e) => e.country === country);
    if (!typical) return [];
    return [{ ...zoneFields(country), load_mw: null, load_at: null, avg_load_mw_24h: typical.avg_load_mw, peak_load_mw_24h: typical.peak_load_mw, min_load_mw_24h: typical.min_load_mw, as_of }];
  },
});
