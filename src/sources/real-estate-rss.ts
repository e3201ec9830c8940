import { csvRecords } from '../upstream/formats/csv.js';
import { whyNot } from './lib/q.js';
import { regionId, ZIP_REGION_TYPE } from '../upstream/formats/redfin-autocomplete.js';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { defineSource, type FetchContext, type Row } from './define.js';

/**
 * There is no public feed of sold homes; Redfin's unofficial "stingray" endpoints are what public
 * code uses: the location autocomplete turns the zip into a region id, and gis-csv lists the sales.
 */
const SOLD_WITHIN_DAYS = 30;
const MAX_HOMES = 50;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export function parseZip(q: string): string {
  if (!/^\d{5}$/.test(q)) {
    throw invalidQ('<zip_code>: a 5-digit US ZIP code', '94110', whyNot(q, 'a 5-digit ZIP code'));
  }
  return q;
}

/** `October-31-2025` → Unix s (midnight UTC). */
export function soldAt(date: string): number | null {
  const m = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(date);
  const month = m ? MONTHS.indexOf(m[1]!.toLowerCase()) : -1;
  return m && month >= 0 ? Date.UTC(Number(m[3]), month, Number(m[2])) / 1000 : null;
}

const numberOrNull = (s: string | undefined) => (s && s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : null);

/** The zip's past sales from gis-csv, newest first; lines before the header (the MLS disclaimer) are skipped. */
export function fromCsv(csv: string, zip: string): Row[] {
  const start = csv.split(/\r?\n/).findIndex((l) => l.startsWith('SALE TYPE,'));
  if (start < 0) throw new UpstreamError('upstream_bad_response', 'redfin sent something other than the sales CSV');
  // The URL column's header carries a long note after "URL"; every other column is named plainly.
  const records = csvRecords(csv, 'redfin', { fromLine: start + 1, header: (h) => (h.startsWith('URL') ? 'URL' : h) });
  const rows = records.flatMap((record) => {
    const get = (name: string) => record[name]?.trim() || undefined;
    const sold = soldAt(get('SOLD DATE') ?? '');
    if (get('SALE TYPE') !== 'PAST SALE' || sold === null || !get('ZIP OR POSTAL CODE')?.startsWith(zip)) return [];
    return [
      {
        address: get('ADDRESS') ?? null,
        city: get('CITY') ?? null,
        state: get('STATE OR PROVINCE') ?? null,
        zip: get('ZIP OR POSTAL CODE') ?? null,
        price_usd: numberOrNull(get('PRICE')),
        beds: numberOrNull(get('BEDS')),
        baths: numberOrNull(get('BATHS')),
        sqft: numberOrNull(get('SQUARE FEET')),
        year_built: numberOrNull(get('YEAR BUILT')),
        property_type: get('PROPERTY TYPE') ?? null,
        sold_at: sold,
        url: get('URL') ?? null,
        lat: numberOrNull(get('LATITUDE')),
        lon: numberOrNull(get('LONGITUDE')),
        as_of: sold,
      },
    ];
  });
  if (rows.length === 0) throw noData(`no home sold in the last ${SOLD_WITHIN_DAYS} days`);
  const byAddress = (a: Row, b: Row) => String(a.address).localeCompare(String(b.address));
  return rows.sort((a, b) => b.sold_at - a.sold_at || byAddress(a, b)).slice(0, MAX_HOMES);
}

async function redfin(zip: string, { http, deadline }: FetchContext): Promise<Row[]> {
  const region = regionId(await http.text('/stingray/do/location-autocomplete', { deadline, query: { location: zip, v: 2 } }), zip);
  const sales = { region_id: region, region_type: ZIP_REGION_TYPE, sold_within_days: SOLD_WITHIN_DAYS, status: 9, uipt: '1,2,3,4' };
  const page = { num_homes: 350, ord: 'redfin-recommended-asc', page_number: 1, v: 8 };
  const csv = await http.text('/stingray/api/gis-csv', { deadline, query: { al: 1, ...sales, ...page } });
  return fromCsv(csv, zip);
}

/**
 * Rows: address, city, state, zip, price_usd (blank in non-disclosure states → null), beds, baths, sqft, year_built,
 * property_type, sold_at (Unix s, the sale date), url, lat, lon; sales of the last 30 days, newest first, up to 50.
 */
export default defineSource<string>({
  type: 'real-estate-rss',
  categories: ['real-estate'],
  qShape: '<zip_code>',
  example: '94110',
  desc: '`<zip_code>`; recently sold homes',
  parseQ: parseZip,
  ttlSeconds: 6 * 3600,
  deadlineMs: 8000,
  upstreams: { redfin },
});
