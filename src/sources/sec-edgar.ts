import { noData } from '../upstream/errors.js';
import { isoDaysAgo } from './lib/fred.js';
import { oneOf } from './lib/q.js';
import { dayStart } from './lib/series.js';
import { Efts, fromAtom, fromEfts, type Filing } from './lib/edgar-feeds.js';
import { defineSource, type Row } from './define.js';

/** Forms we serve; `13F` means the holdings report 13F-HR. Each also matches its amendment (`/A`). */
export const FORMS = [
  '8-K',
  '10-K',
  '10-Q',
  '13F',
  'S-1',
  'S-3',
  'S-4',
  '3',
  '4',
  '5',
  '6-K',
  '20-F',
  '40-F',
  '11-K',
  'DEF 14A',
  '144',
  'D',
] as const;
export type Form = (typeof FORMS)[number];
const EDGAR_FORM: Partial<Record<Form, string>> = { '13F': '13F-HR' };
const MAX_FILINGS = 40;
const EFTS_DAYS = 7;

/** Case, spaces and dashes are ignored: `8k`, `8-K` and `def14a` all work. */
export const parseForm = oneOf(FORMS, '<form_type>', (s) => s.toUpperCase().replace(/[^A-Z0-9]/g, ''));
const edgarForm = (form: Form) => EDGAR_FORM[form] ?? form;
/** EDGAR's `type=` is a prefix match (`4` also returns `40-F`, `424B2`), so rows are kept by exact form. */
const isForm = (form: Form) => (term: string) => term === edgarForm(form) || term === `${edgarForm(form)}/A`;

const isOwner = (f: Filing) => Number(f.role === 'reporting');

/** Newest first, one row per accession: a Form 4 is listed for its issuer and for each reporting owner, and the issuer's entry is kept. */
export function toRows(filings: Filing[], form: Form): Row[] {
  const seen = new Set<string>();
  const rows = filings
    .filter((f) => isForm(form)(f.form))
    .sort((a, b) => b.filed_date.localeCompare(a.filed_date) || (b.accepted_at ?? 0) - (a.accepted_at ?? 0) || isOwner(a) - isOwner(b))
    .filter((f) => !seen.has(f.accession_no) && seen.add(f.accession_no))
    .slice(0, MAX_FILINGS);
  if (rows.length === 0) throw noData(`no recent ${form} filings`);
  return rows.map((f) => ({ ...f, as_of: f.accepted_at ?? dayStart(f.filed_date) }));
}

/**
 * Rows (newest first, up to 40): form (exact, e.g. 8-K/A), company, cik (10 digits), role (filer, issuer, reporting; null from
 * full-text search), accession_no, filed_date (YYYY-MM-DD), accepted_at (null from full-text search), items (8-K items; null when
 * unknown), url (the filing index page).
 */
export default defineSource<Form>({
  type: 'sec-edgar',
  categories: ['finance', 'regulatory', 'filings'],
  qShape: '<form_type>',
  example: '8-K',
  desc: '`<form_type>` such as 8-K, 10-K, 13F; latest filings of that form',
  parseQ: parseForm,
  keyOf: (form) => form,
  ttlSeconds: 300,
  deadlineMs: 6000,
  upstreams: {
    'sec-edgar': async (form, { http, deadline }) => {
      const filter = { action: 'getcurrent', type: edgarForm(form), company: '', dateb: '', owner: 'include' };
      const query = { ...filter, start: 0, count: 100, output: 'atom' };
      return toRows(fromAtom(await http.text('/cgi-bin/browse-edgar', { deadline, query })), form);
    },
    'sec-efts': async (form, { http, deadline, clock }) => {
      const range = { dateRange: 'custom', startdt: isoDaysAgo(clock.now(), EFTS_DAYS), enddt: isoDaysAgo(clock.now(), 0) };
      const query = { forms: `${edgarForm(form)},${edgarForm(form)}/A`, ...range };
      return toRows(fromEfts(await http.json<Efts>('/LATEST/search-index', Efts, { deadline, query })), form);
    },
  },
});
