import Type from 'typebox';
import { UpstreamError, noData } from '../upstream/errors.js';
import { dayStart } from './lib/series.js';
import { oneOf } from './lib/q.js';
import { defineSource, type FetchContext, type Row } from './define.js';

/** CourtListener court ids of the federal appellate bench; `latest` is every court, `federal` all of these at once. */
const FEDERAL = ['scotus', 'ca1', 'ca2', 'ca3', 'ca4', 'ca5', 'ca6', 'ca7', 'ca8', 'ca9', 'ca10', 'ca11', 'cadc', 'cafc'] as const;
export const LABELS = ['latest', 'federal', ...FEDERAL] as const;
export type Label = (typeof LABELS)[number];
const SITE = 'https://www.courtlistener.com';
const WINDOW_DAYS = 30;

export const parseLabel = oneOf(LABELS, '<label>: latest (all courts), federal, or a federal appellate court id', (s) => s.toLowerCase());

/** The `court` filter (space-separated ids) for a label; none for `latest`. */
export const courtFilter = (label: Label): string | undefined =>
  label === 'latest' ? undefined : label === 'federal' ? FEDERAL.join(' ') : label;

/** `filed_after` wants MM/DD/YYYY. */
export function filedAfter(nowMs: number): string {
  const d = new Date(nowMs - WINDOW_DAYS * 86_400_000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

const Search = Type.Object({
  results: Type.Array(
    Type.Object({
      cluster_id: Type.Integer(),
      caseName: Type.String(),
      court: Type.String(),
      court_id: Type.String(),
      dateFiled: Type.String(),
      docketNumber: Type.Union([Type.String(), Type.Null()]),
      citation: Type.Array(Type.String()),
      status: Type.String(),
      absolute_url: Type.String(),
    }),
  ),
});
type Search = Type.Static<typeof Search>;

export function toRows(raw: Search): Row[] {
  if (raw.results.length === 0) throw noData(`no opinions filed in the last ${WINDOW_DAYS} days`);
  return raw.results.map((r) => {
    // Some endpoints send ISO datetimes here; the date part is what is meant.
    const filedAt = dayStart(r.dateFiled.slice(0, 10));
    return {
      cluster_id: r.cluster_id,
      case_name: r.caseName,
      court: r.court,
      court_id: r.court_id,
      filed_at: filedAt,
      docket_number: r.docketNumber || null,
      citations: r.citation,
      status: r.status,
      url: SITE + r.absolute_url,
      as_of: filedAt,
    };
  });
}

/** Newest opinions first; the keyed host sends `Authorization: Token <key>`, the anonymous one nothing. */
async function search(label: Label, { http, deadline, clock }: FetchContext): Promise<Row[]> {
  const query = { type: 'o', order_by: 'dateFiled desc', filed_after: filedAfter(clock.now()), court: courtFilter(label) };
  try {
    return toRows(await http.json<Search>('/api/rest/v4/search/', Search, { deadline, query }));
  } catch (e) {
    // Anonymous v4 calls are being phased out (HTTP 401): that is a missing key, not an outage.
    if (http.name === 'courtlistener-anon' && e instanceof UpstreamError && e.info.status === 401) {
      const why = 'CourtListener refuses anonymous requests: set UPSTREAM_COURTLISTENER_KEY';
      throw new UpstreamError('upstream_key_missing', why, { host: http.name });
    }
    throw e;
  }
}

/**
 * Rows (newest first, up to 20 published opinions of the last 30 days): cluster_id, case_name, court, court_id, filed_at,
 * docket_number, citations (reporter citations, often empty for fresh opinions), status, url.
 */
export default defineSource<Label>({
  type: 'legal-courtlistener',
  categories: ['legal', 'filings'],
  qShape: '<label>',
  example: 'latest',
  desc: '`<label>`; latest US court opinions feed',
  parseQ: parseLabel,
  keyOf: (label) => label,
  ttlSeconds: 1800,
  deadlineMs: 7000,
  upstreams: {
    // Without a key the client skips this host (upstream_key_missing) before anything is sent.
    courtlistener: search,
    'courtlistener-anon': search,
  },
});
