import Type from 'typebox';
import { whyNot } from './lib/q.js';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { epiweekOf, epiweekStart } from './lib/mmwr-week.js';
import { dayStart } from './lib/series.js';
import { nextWeek } from './lib/schedule.js';
import { defineSource, type Row } from './define.js';

const WEEKS_BACK = 8;
const WEEK_MS = 7 * 86_400_000;
/** ILINet locations Delphi serves besides nat, hhs1-10 and cen1-9 (its fluview_locations.py); `jfk` is New York City. */
const STATES = (
  'ak al ar az ca co ct dc de fl ga hi ia id il in ks ky la ma md me mi mn mo ms mt nc nd ne nh nj ' +
  'nm nv ny oh ok or pa pr ri sc sd tn tx ut va vi vt wa wi wv wy jfk'
).split(' ');
const ALIASES: Record<string, string> = { national: 'nat', us: 'nat', usa: 'nat' };
const REGION = /^(nat|hhs([1-9]|10)|cen[1-9])$/;
const SHAPE = '<region_label>: nat (or national, us), hhs1-hhs10, cen1-cen9, or a two-letter state code such as ca (jfk = New York City)';

export function parseRegion(q: string): string {
  const region = ALIASES[q.toLowerCase()] ?? q.toLowerCase();
  if (!REGION.test(region) && !STATES.includes(region)) throw invalidQ(SHAPE, 'nat', whyNot(q, 'an ILINet region'));
  return region;
}

/** The last WEEKS_BACK epiweeks up to now, as Delphi's `YYYYWW-YYYYWW` range. */
export const recentEpiweeks = (nowMs: number): string => `${epiweekOf(nowMs - WEEKS_BACK * WEEK_MS)}-${epiweekOf(nowMs)}`;

const Count = Type.Union([Type.Number(), Type.Null()]);
const Week = Type.Object({
  release_date: Type.Union([Type.String(), Type.Null()]),
  region: Type.String(),
  issue: Type.Integer(),
  epiweek: Type.Integer(),
  lag: Type.Integer(),
  num_ili: Count,
  num_patients: Count,
  num_providers: Count,
  wili: Count,
  ili: Count,
});
/** `result`: 1 ok, 2 too many results (still data), -2 no results, -1 bad request; HTTP is 200 either way. */
const Fluview = Type.Object({ result: Type.Integer(), message: Type.String(), epidata: Type.Optional(Type.Array(Week)) });
type Fluview = Type.Static<typeof Fluview>;

export function toRows(raw: Fluview, region: string): Row[] {
  if (raw.result < 0 && raw.result !== -2) {
    throw new UpstreamError('upstream_bad_response', `Delphi Epidata refused the request: ${raw.message}`);
  }
  const weeks = (raw.epidata ?? []).filter((w) => w.region === region).sort((a, b) => b.epiweek - a.epiweek);
  const [latest, previous] = weeks;
  if (!latest) throw noData(`FluView has no recent week for ${region}`);
  return [
    {
      region,
      epiweek: latest.epiweek,
      week_start_at: epiweekStart(latest.epiweek),
      wili_pct: latest.wili,
      ili_pct: latest.ili,
      wili_prev_week_pct: previous?.wili ?? null,
      num_ili: latest.num_ili,
      num_patients: latest.num_patients,
      num_providers: latest.num_providers,
      issue: latest.issue,
      lag_weeks: latest.lag,
      ...(latest.release_date ? { as_of: dayStart(latest.release_date) } : {}),
    },
  ];
}

/**
 * Rows (one, the newest reported week): region, epiweek (MMWR YYYYWW), week_start_at, wili_pct (population-weighted % of visits
 * for influenza-like illness, the headline figure), ili_pct (unweighted), wili_prev_week_pct, num_ili, num_patients,
 * num_providers, issue (epiweek of that revision), lag_weeks; as_of = the CDC release date. Recent weeks get revised.
 */
export default defineSource<string>({
  type: 'cdc-flu',
  categories: ['health', 'public-health'],
  qShape: '<region_label>',
  example: 'nat',
  desc: '`<region_label>`; weekly influenza-like-illness activity snapshot',
  parseQ: parseRegion,
  keyOf: (region) => region,
  ttlSeconds: 6 * 3600,
  // FluView is released weekly; as_of is the release date of the newest week.
  nextUpdate: (asOf, row) => (row.as_of_kind === 'source' ? nextWeek(asOf) : undefined),
  deadlineMs: 6000,
  upstreams: {
    'delphi-epidata': async (region, { http, deadline, clock }) =>
      toRows(
        await http.json<Fluview>('/epidata/fluview/', Fluview, {
          deadline,
          query: { regions: region, epiweeks: recentEpiweeks(clock.now()) },
        }),
        region,
      ),
  },
});
