import Type from 'typebox';
import { noData } from '../upstream/errors.js';
import { FORM, Grant, form, withBearer } from './lib/bearer-token.js';
import { searchArticles, topic } from './lib/gdelt.js';
import { defineSource, type FetchContext, type Row } from './define.js';

const MAX = 20;
const WINDOW_DAYS = 60;
const DAY_MS = 86_400_000;
/** ACLED sends most numbers as strings; accept either. */
const Num = Type.Union([Type.String(), Type.Number()]);
const Str = Type.String();
const Event = Type.Object({
  event_id_cnty: Str,
  event_date: Str,
  event_type: Str,
  sub_event_type: Str,
  actor1: Str,
  actor2: Type.Optional(Type.Union([Str, Type.Null()])),
  country: Str,
  admin1: Str,
  location: Str,
  latitude: Num,
  longitude: Num,
  fatalities: Num,
  notes: Str,
});
const Events = Type.Object({ data: Type.Array(Event) });
/** Ask only for the columns read. */
const FIELDS = Object.keys(Event.properties).join('|');
export type Events = Type.Static<typeof Events>;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Coded events, newest first; `event_date` is a UTC calendar day. */
export function eventRows(raw: Events): Row[] {
  const rows = raw.data
    .map((e) => ({
      kind: 'event',
      event_id: e.event_id_cnty,
      occurred_at: Date.parse(`${e.event_date}T00:00:00Z`) / 1000,
      event_type: e.event_type,
      sub_event_type: e.sub_event_type,
      actor1: e.actor1,
      actor2: e.actor2 || null,
      country: e.country,
      admin1: e.admin1,
      location: e.location,
      lat: Number(e.latitude),
      lon: Number(e.longitude),
      fatalities: Number(e.fatalities),
      notes: e.notes,
    }))
    .sort((a, b) => b.occurred_at - a.occurred_at)
    .slice(0, MAX)
    .map((r) => ({ ...r, as_of: r.occurred_at }));
  if (rows.length === 0) throw noData(`ACLED coded no event mentioning this keyword in the last ${WINDOW_DAYS} days`);
  return rows;
}

/** Password grant (`UPSTREAM_ACLED_KEY=email:password`), then events whose notes mention the keyword. */
function acled(keyword: string, ctx: FetchContext): Promise<Row[]> {
  const buy = (credentials: string) => {
    const [username = '', ...password] = credentials.split(':');
    const fields = { username, password: password.join(':'), grant_type: 'password', client_id: 'acled' };
    return ctx.http.json<Grant>('/oauth/token', Grant, { method: 'POST', deadline: ctx.deadline, headers: FORM, body: form(fields) });
  };
  const now = ctx.clock.now();
  const query = {
    _format: 'json',
    notes: keyword,
    event_date: `${day(now - WINDOW_DAYS * DAY_MS)}|${day(now)}`,
    event_date_where: 'BETWEEN',
    fields: FIELDS,
    limit: 500,
  };
  const read = (token: string) =>
    ctx.http.json<Events>('/api/acled/read', Events, { deadline: ctx.deadline, query, headers: { authorization: `Bearer ${token}` } });
  return withBearer(ctx, ctx.http, buy, read).then(eventRows);
}

/** News about fighting that names the keyword: articles, not coded events. */
const conflictNews = async (keyword: string, ctx: FetchContext): Promise<Row[]> =>
  (await searchArticles(`"${keyword}" (clashes OR attack OR militia OR airstrike)`, MAX, ctx)).map((a) => ({ kind: 'article', ...a }));

/**
 * Rows from ACLED (kind `event`): event_id, occurred_at (Unix s, UTC day), event_type, sub_event_type, actor1,
 * actor2, country, admin1, location, lat, lon, fatalities, notes; newest first, last 60 days. From the keyless
 * GDELT fallback (kind `article`): title, url, domain, language, source_country, image_url, seen_at.
 */
export default defineSource<string>({
  type: 'acled-conflict',
  categories: ['geopolitics', 'conflict', 'global'],
  qShape: '<topic_keyword>',
  example: 'sudan',
  desc: '`<topic_keyword>`; conflict event articles',
  parseQ: topic('<topic_keyword>', 'sudan'),
  keyOf: (k) => k,
  ttlSeconds: 3600,
  deadlineMs: 8000,
  upstreams: { acled, gdelt: conflictNews },
});
