import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { parse } from 'csv-parse/sync';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { defineSource, type FetchContext, type Row } from './define.js';

/**
 * There is no public feed of sold homes; Redfin's unofficial "stingray" endpoints are what public
 * code uses: the location autocomplete turns the zip into a region id, and gis-csv lists the sales.
 */
const SOLD_WITHIN_DAYS = 30;
const MAX_HOMES = 50;
/** Redfin's region type for zip codes; autocomplete ids read `<region type>_<region id>`. */
const ZIP_REGION_TYPE = '2';
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export function parseZip(q: string): string {
  if (!/^\d{5}$/.test(q)) throw invalidQ('<zip_code>: a 5-digit US ZIP code', '94110', q ? `"${q}" is not a 5-digit ZIP code` : 'q is required');
  return q;
}

const Place = Type.Object({ id: Type.String(), name: Type.String() });
const Autocomplete = Type.Object({
  payload: Type.Object({
    exactMatch: Type.Optional(Type.Union([Place, Type.Null()])),
    sections: Type.Optional(Type.Array(Type.Object({ rows: Type.Optional(Type.Array(Place)) }))),
  }),
});
const autocomplete = Compile(Autocomplete);

/** The zip's region id from an autocomplete answer (`{}&&` + JSON, Redfin's anti-hijacking prefix). */
export function regionId(text: string, zip: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\{\}&&/, ''));
  } catch {
    throw new UpstreamError('upstream_bad_response', 'redfin sent an autocomplete answer that is not JSON');
  }
  if (!autocomplete.Check(doc)) throw new UpstreamError('upstream_bad_response', 'redfin sent an autocomplete answer in an unexpected shape');
  const { exactMatch, sections = [] } = doc.payload;
  const places = [exactMatch ?? [], ...sections.map((s) => s.rows ?? [])].flat();
  const hit = places.map((p) => ({ name: p.name, id: /^(\d+)_(\d+)$/.exec(p.id) })).find((p) => p.name.startsWith(zip) && p.id?.[1] === ZIP_REGION_TYPE);
  if (!hit) throw noData(`Redfin does not know ZIP code ${zip}`);
  return hit.id![2]!;
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
  let records: Record<string, string>[];
  try {
    records = parse(csv, { from_line: start + 1, columns: (header: string[]) => header.map((h) => (h.startsWith('URL') ? 'URL' : h)), relax_column_count: true, skip_empty_lines: true });
  } catch (e) {
    throw new UpstreamError('upstream_bad_response', `redfin sent a CSV that does not parse (${(e as Error).message})`);
  }
  const rows = records.flatMap((record) => {
    const get = (name: string) => record[name]?.trim() || undefined;
    const sold = soldAt(get('SOLD DATE') ?? '');
    if (get('SALE TYPE') !== 'PAST SALE' || sold === null || !get('ZIP OR POSTAL CODE')?.startsWith(zip)) return [];
    return [{
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
    }];
  });
  if (rows.length === 0) throw noData(`no home sold in the last ${SOLD_WITHIN_DAYS} days`);
  return rows.sort((a, b) => b.sold_at - a.sold_at || String(a.address).localeCompare(String(b.address))).slice(0, MAX_HOMES);
}

async function redfin(zip: string, { http, deadline }: FetchContext): Promise<Row[]> {
  const region = regionId(await http.text('/stingray/do/location-autocomplete', { deadline, query: { location: zip, v: 2 } }), zip);
  const csv = await http.text('/stingray/api/gis-csv', {
    deadline,
    query: { al: 1, region_id: region, region_type: ZIP_REGION_TYPE, sold_within_days: SOLD_WITHIN_DAYS, status: 9, uipt: '1,2,3,4', num_homes: 350, ord: 'redfin-recommended-asc', page_number: 1, v: 8 },
  });
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
