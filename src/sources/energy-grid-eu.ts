import { mean, roundTo } from '../core/numbers.js';
import { energyChartsLoad, PublicPower } from '../upstream/formats/energy-charts.js';
import { entsoeReadings, entsoeTime, type Reading } from '../upstream/formats/entsoe.js';
import { noData } from '../upstream/errors.js';
import { oneOf } from './lib/q.js';
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

/** The latest reading, and mean, peak and trough over the 24 hours up to `nowS`. */
export function toRows(country: Country, readings: Reading[], nowS: number): Row[] {
  const recent = readings.filter((r) => r.at > nowS - WINDOW_S && r.at <= nowS).sort((a, b) => a.at - b.at);
  const latest = recent.at(-1);
  if (!latest) throw noData(`no ${country} load readings in the last 24 hours`);
  const values = recent.map((r) => r.mw);
  return [
    {
      country,
      name: ZONES[country].name,
      bidding_zone: ZONES[country].eic,
      load_mw: latest.mw,
      load_at: latest.at,
      avg_load_mw_24h: roundTo(mean(values), 1),
      peak_load_mw_24h: Math.max(...values),
      min_load_mw_24h: Math.min(...values),
      as_of: latest.at,
    },
  ];
}

/**
 * Rows (one), measured only: country, name, bidding_zone (ENTSO-E EIC), load_mw (latest actual load), load_at (Unix s),
 * avg_load_mw_24h, peak_load_mw_24h, min_load_mw_24h (over the last 24 hours). ENTSO-E (with a security token) first,
 * then Energy-Charts (keyless, the same ENTSO-E load as republished by Fraunhofer ISE); no estimated fallback.
 */
export default defineSource<Country>({
  type: 'energy-grid-eu',
  categories: ['energy', 'power', 'europe'],
  qShape: '<country_code>',
  example: 'DE',
  desc: '`<country_code>`; actual grid load over the last 24 hours (ENTSO-E, Energy-Charts)',
  parseQ: oneOf(COUNTRIES, '<country_code>'),
  keyOf: (country) => country,
  ttlSeconds: 900,
  deadlineMs: 6000,
  upstreams: {
    entsoe: async (country, { http, deadline, clock }) => {
      const nowS = Math.floor(clock.now() / 1000);
      const end = Math.ceil(nowS / HOUR_S) * HOUR_S;
      const query = {
        documentType: 'A65',
        processType: 'A16',
        outBiddingZone_Domain: ZONES[country].eic,
        periodStart: entsoeTime(end - WINDOW_S),
        periodEnd: entsoeTime(end),
      };
      return toRows(country, entsoeReadings(await http.text('/api', { deadline, query })), nowS);
    },
    'energy-charts': async (country, { http, deadline, clock }) => {
      const nowS = Math.floor(clock.now() / 1000);
      const query = { country: country.toLowerCase(), start: nowS - WINDOW_S, end: nowS };
      const raw = await http.json<PublicPower>('/public_power', PublicPower, { deadline, query });
      return toRows(country, energyChartsLoad(raw), nowS);
    },
  },
});
