import { importOnce } from '../core/import-once.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { usState, type UsState } from './lib/us-states.js';
import { defineSource, type Row } from './define.js';

/**
 * The HHS OCR breach portal has no API. Its report page serves the newest 100 reports (of the last
 * 24 months) as a server-rendered PrimeFaces table; later pages and the CSV export need a JSF session
 * with cookies, which the upstream client does not keep, so this reads the first page only.
 */
const REPORT_PATH = '/ocr/breach/breach_report_hip.jsf';
const TABLE_BODY = '[id="ocrForm:reportResultTable_data"]';
const loadLinkedom = importOnce(() => import('linkedom'));

/** The table's column titles, as the portal and its CSV export name them. */
const COLUMNS = {
  entity: 'Name of Covered Entity',
  state: 'State',
  entity_type: 'Covered Entity Type',
  individuals_affected: 'Individuals Affected',
  submitted: 'Breach Submission Date',
  breach_type: 'Type of Breach',
  location: 'Location of Breached Information',
  business_associate: 'Business Associate Present',
} as const;
type Field = keyof typeof COLUMNS;
const REQUIRED: Field[] = ['entity', 'state', 'individuals_affected', 'submitted'];

export type Report = Record<Field, string | null>;

const clean = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Every report row of the page; a page without the report table (an error page, a redirect, a login) is a bad response. */
export async function parseReportPage(html: string): Promise<Report[]> {
  const { parseHTML } = await loadLinkedom();
  const { document } = parseHTML(html);
  const body = document.querySelector(TABLE_BODY);
  const heads = [...(body?.closest('table')?.querySelectorAll('thead th') ?? [])];
  const titles = heads.map((th) => clean((th.querySelector('.ui-column-title') ?? th).textContent));
  const columnOf = ([field, title]: [string, string]) => [field, titles.indexOf(title)];
  const index = Object.fromEntries(Object.entries(COLUMNS).map(columnOf)) as Record<Field, number>;
  if (!body || REQUIRED.some((f) => index[f] < 0)) {
    throw new UpstreamError('upstream_bad_response', 'hhs-ocr sent a page without the breach report table');
  }
  // Data rows carry data-ri (the "No records found." row does not); several values in one cell are split by <br>.
  return [...body.querySelectorAll('tr[data-ri]')].map((tr) => {
    for (const br of tr.querySelectorAll('br')) br.replaceWith(', ');
    const cells = [...tr.children].map((td) => clean(td.textContent));
    const cell = (f: Field) => (index[f] >= 0 && cells[index[f]]) || null;
    return Object.fromEntries(Object.keys(COLUMNS).map((f) => [f, cell(f as Field)])) as Report;
  });
}

/** `MM/DD/YYYY` → Unix s (midnight UTC); null when the cell holds something else. */
export function submittedAt(date: string | null): number | null {
  const m = date?.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  return m ? Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])) / 1000 : null;
}

const count = (s: string | null) => (s && /\d/.test(s) ? Number(s.replace(/[^\d]/g, '')) : null);
const yesNo = (s: string | null) => (s === 'Yes' ? true : s === 'No' ? false : null);

/** The state's reports, newest first. */
export function toRows(reports: Report[], state: UsState): Row[] {
  const rows = reports
    .filter((r) => r.state?.toUpperCase() === state.code)
    .map((r) => ({
      entity: r.entity,
      state: state.code,
      entity_type: r.entity_type,
      individuals_affected: count(r.individuals_affected),
      submitted_at: submittedAt(r.submitted),
      breach_type: r.breach_type,
      location: r.location,
      business_associate: yesNo(r.business_associate),
    }))
    .sort((a, b) => (b.submitted_at ?? 0) - (a.submitted_at ?? 0));
  if (rows.length === 0) throw noData(`none of the newest ${reports.length} breach reports is from ${state.name}`);
  return rows;
}

/**
 * Rows: entity, state (USPS code), entity_type, individuals_affected, submitted_at (Unix s), breach_type,
 * location, business_associate (bool, null when the portal omits the column); newest first, from the
 * portal's newest 100 reports (breaches of 500+ individuals).
 */
export default defineSource<UsState>({
  type: 'breach',
  categories: ['security', 'health'],
  qShape: '<us_state_name>',
  example: 'California',
  desc: '`<us_state_name>`; healthcare breach reports',
  parseQ: usState,
  keyOf: (state) => state.code,
  // Reports arrive a few a day; a long TTL is gentle on the portal and, through the runner's
  // stale window (5 × TTL), keeps serving the last good answer for days while the portal is down.
  ttlSeconds: 12 * 3600,
  deadlineMs: 8000,
  upstreams: {
    'hhs-ocr': async (state, { http, deadline }) =>
      toRows(await parseReportPage(await http.text(REPORT_PATH, { deadline, headers: { accept: 'text/html' } })), state),
  },
});
