import { invalidQ } from '../core/errors.js';
import { whyNot } from './lib/q.js';
import { noData } from '../upstream/errors.js';
import { isoDaysAgo } from './lib/fred.js';
import { plainText } from './lib/html-text.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';
import { Dons } from '../upstream/formats/who-dons.js';
import { Reports } from '../upstream/formats/reliefweb.js';

const MAX_ITEMS = 10;
const WINDOW_DAYS = 365;
const SUMMARY_CHARS = 400;
const LABEL = /^[\p{L}\p{N}][\p{L}\p{N} ()'.-]{1,39}$/u;
const ITEM_URL = 'https://www.who.int/emergencies/disease-outbreak-news/item/';

/** `latest` (every entry) or a disease or country keyword matched against titles; lower-cased, spaces collapsed. */
export function parseLabel(q: string): string {
  const label = q.toLowerCase().replace(/\s+/g, ' ');
  if (!LABEL.test(label)) {
    const shape = '<label>: latest, or a disease or country keyword of 2-40 letters (e.g. cholera, marburg, ethiopia)';
    throw invalidQ(shape, 'latest', whyNot(q, 'a label'));
  }
  return label;
}

export interface Entry {
  don_id: string | null;
  title: string;
  published_at: number;
  url: string;
  summary: string | null;
}

export const fromDons = (raw: Dons): Promise<Entry[]> =>
  Promise.all(
    raw.value.map(async (d) => ({
      don_id: d.DonId ?? null,
      title: d.OverrideTitle || d.Title,
      published_at: parseUnixSeconds(d.PublicationDate),
      url: ITEM_URL + d.UrlName,
      summary: d.Summary ? await plainText(d.Summary, SUMMARY_CHARS) : null,
    })),
  );

export const fromReports = (raw: Reports): Entry[] =>
  raw.data.map(({ fields: f }) => ({
    don_id: null,
    title: f.title,
    published_at: parseUnixSeconds(f.date.created),
    url: f.url_alias ?? f.url,
    summary: null,
  }));

/** Newest first, one per URL (WHO pages may come back out of order and overlap), titles matching the label. */
export function toRows(entries: Entry[], label: string): Row[] {
  const seen = new Set<string>();
  const rows = entries
    .filter((e) => label === 'latest' || e.title.toLowerCase().includes(label))
    .sort((a, b) => b.published_at - a.published_at)
    .filter((e) => !seen.has(e.url) && seen.add(e.url))
    .slice(0, MAX_ITEMS);
  if (rows.length === 0) {
    throw noData(label === 'latest' ? 'no outbreak news in the last year' : `no outbreak news in the last year mentions "${label}"`);
  }
  return rows.map((e) => ({ ...e, as_of: e.published_at }));
}

/**
 * Rows (newest first, up to 10): don_id (e.g. 2026-DON625; null from ReliefWeb), title, published_at, url,
 * summary (plain text, up to 400 chars).
 */
export default defineSource<string>({
  type: 'who-outbreak',
  categories: ['health', 'public-health', 'global'],
  qShape: '<label>',
  example: 'latest',
  desc: '`<label>`; latest disease outbreak news entries',
  parseQ: parseLabel,
  keyOf: (label) => label,
  ttlSeconds: 1800,
  deadlineMs: 7000,
  upstreams: {
    // $orderby is ignored and $top capped at 100, so a date filter bounds the set and we sort ourselves.
    who: async (label, { http, deadline, clock }) => {
      const query = { $filter: `PublicationDate ge ${isoDaysAgo(clock.now(), WINDOW_DAYS)}`, $orderby: 'PublicationDate desc', $top: 100 };
      return toRows(await fromDons(await http.json<Dons>('/api/news/diseaseoutbreaknews', Dons, { deadline, query })), label);
    },
    reliefweb: async (label, { http, deadline }) => {
      const body = {
        query: { value: '"Disease Outbreak News"', fields: ['title'] },
        filter: { field: 'source.shortname', value: 'WHO' },
        sort: ['date.created:desc'],
        limit: 100,
        fields: { include: ['title', 'url_alias', 'url', 'date.created'] },
      };
      const headers = { 'content-type': 'application/json' };
      const raw = await http.json<Reports>('/v2/reports', Reports, { deadline, method: 'POST', body: JSON.stringify(body), headers });
      return toRows(fromReports(raw), label);
    },
  },
});
