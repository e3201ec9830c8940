import Type from 'typebox';
import { whyNot } from './q.js';
import { Compile } from 'typebox/compile';
import { invalidQ } from '../../core/errors.js';
import { noData, UpstreamError } from '../../upstream/errors.js';
import type { FetchContext } from '../define.js';

/**
 * GDELT DOC 2.0 article search, for gdelt-events and as acled-conflict's keyless fallback.
 * A query GDELT refuses comes back as HTTP 200 text/html with a sentence, not JSON.
 */

/** Words, digits, spaces, `.`, `'` and `-`; GDELT operators (quotes, parentheses, `:`) are not taken from q. */
const TOPIC = /^[\p{L}\p{N}][\p{L}\p{N} .'-]{1,78}[\p{L}\p{N}.]$/u;

/** Whether GDELT takes this text as a topic (3-80 letters, digits, spaces, . ' or -). */
export const isPlainTopic = (q: string): boolean => TOPIC.test(q.replace(/\s+/g, ' '));

export function topic(shape: string, example: string) {
  return (q: string): string => {
    const text = q.replace(/\s+/g, ' ');
    if (!isPlainTopic(text)) throw invalidQ(`${shape} (3-80 letters, digits, spaces, . ' or -)`, example, whyNot(q, 'a plain topic'));
    return text.toLowerCase();
  };
}

/** A multi-word topic is searched as a phrase; a single word as is. */
export const phrase = (topic: string): string => (topic.includes(' ') ? `"${topic}"` : topic);

const Artlist = Type.Object({
  articles: Type.Optional(
    Type.Array(
      Type.Object({
        url: Type.String(),
        title: Type.String(),
        seendate: Type.String(),
        socialimage: Type.Optional(Type.String()),
        domain: Type.String(),
        language: Type.String(),
        sourcecountry: Type.String(),
      }),
    ),
  ),
});
export type Artlist = Type.Static<typeof Artlist>;
const artlist = Compile(Artlist);

/** A type alias, not an interface, so it is a Row. */
export type Article = {
  title: string;
  url: string;
  domain: string;
  language: string;
  source_country: string;
  image_url: string | null;
  seen_at: number;
  as_of: number;
};

/** `20260924T113000Z` → Unix seconds. */
export function seenAt(compact: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(compact);
  if (!m) throw new UpstreamError('upstream_bad_response', `GDELT sent an unreadable seendate "${compact}"`);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
}

/** Articles newest first; syndicated copies (same title) and repeated URLs are kept once. */
export function fromArtlist(raw: Artlist, max: number): Article[] {
  const seen = new Set<string>();
  const articles = (raw.articles ?? []).flatMap((a) => {
    const title = a.title.trim().toLowerCase();
    if (seen.has(a.url) || seen.has(title)) return [];
    seen.add(a.url).add(title);
    const at = seenAt(a.seendate);
    return [
      {
        title: a.title.trim(),
        url: a.url,
        domain: a.domain,
        language: a.language,
        source_country: a.sourcecountry,
        image_url: a.socialimage || null,
        seen_at: at,
        as_of: at,
      },
    ];
  });
  if (articles.length === 0) throw noData('GDELT found no articles for this topic in the last 24 hours');
  return articles.sort((a, b) => b.seen_at - a.seen_at).slice(0, max);
}

/** The artlist, or GDELT's plain-text refusal of the query turned into an error that quotes it. */
export function parseArtlist(text: string): Artlist {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UpstreamError('upstream_bad_response', `GDELT refused the query: ${text.trim().slice(0, 160)}`);
  }
  if (!artlist.Check(raw)) throw new UpstreamError('upstream_bad_response', 'GDELT answered in an unexpected shape');
  return raw;
}

/** The last 24 hours of articles matching a GDELT query (operators allowed here), newest first. */
export async function searchArticles(query: string, max: number, ctx: FetchContext): Promise<Article[]> {
  const text = await ctx.http.text('/api/v2/doc/doc', {
    deadline: ctx.deadline,
    query: { query, mode: 'artlist', format: 'json', maxrecords: 75, timespan: '24h', sort: 'datedesc' },
  });
  return fromArtlist(parseArtlist(text), max);
}
