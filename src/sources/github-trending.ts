import Type from 'typebox';
import { whyNot } from './lib/q.js';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';

const WINDOW_S = 48 * 3600;
const TOP = 10;
/** Search returns whole days; asking for 30 leaves room to drop what is older than 48 hours. */
const PER_PAGE = 30;
/** GitHub language names: letters, digits, spaces and a few symbols (C++, C#, Objective-C, Ren'Py, F*). */
const LANGUAGE = /^[a-z0-9][a-z0-9 +#.'*-]{0,39}$/;

/** The language, lower-cased with single spaces: `Jupyter  Notebook` and `jupyter notebook` are one query. */
export function parseLanguage(q: string): string {
  const language = q.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!LANGUAGE.test(language)) {
    const shape = '<language> as GitHub names it, e.g. typescript, python, c++, "jupyter notebook"';
    throw invalidQ(shape, 'typescript', whyNot(q, 'a language name'));
  }
  return language;
}

/** The search query: a multi-word language must be quoted; `>=` a whole day, trimmed to 48 hours by `toRows`. */
export function searchQuery(language: string, nowS: number): string {
  const since = new Date((nowS - WINDOW_S) * 1000).toISOString().slice(0, 10);
  return `created:>=${since} language:${language.includes(' ') ? `"${language}"` : language}`;
}

const Repos = Type.Object({
  items: Type.Array(
    Type.Object({
      full_name: Type.String(),
      html_url: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      language: Type.Union([Type.String(), Type.Null()]),
      stargazers_count: Type.Integer(),
      forks_count: Type.Integer(),
      created_at: Type.String(),
    }),
  ),
});
type Repos = Type.Static<typeof Repos>;

/** Repositories created in the last 48 hours, most stars first (ties: newest first), top 10. */
export function toRows(raw: Repos, nowS: number): Row[] {
  const repos = raw.items
    .map((r) => ({ ...r, created: parseUnixSeconds(r.created_at) }))
    .filter((r) => r.created >= nowS - WINDOW_S)
    .sort((a, b) => b.stargazers_count - a.stargazers_count || b.created - a.created)
    .slice(0, TOP);
  if (repos.length === 0) throw noData('no repository in this language was created in the last 48 hours');
  return repos.map((r, i) => ({
    rank: i + 1,
    full_name: r.full_name,
    url: r.html_url,
    description: r.description,
    language: r.language,
    stars: r.stargazers_count,
    forks: r.forks_count,
    created_at: r.created,
  }));
}

/** Rows: rank, full_name, url, description, language, stars, forks, created_at (Unix s); top 10 by stars. */
export default defineSource<string>({
  type: 'github-trending',
  categories: ['dev', 'tech'],
  qShape: '<language>',
  example: 'typescript',
  desc: '`<language>`; repositories created in the last 48 hours, sorted by stars',
  parseQ: parseLanguage,
  keyOf: (language) => language,
  ttlSeconds: 1800,
  deadlineMs: 6000,
  upstreams: {
    github: async (language, { http, deadline, clock }) => {
      const nowS = Math.floor(clock.now() / 1000);
      const query = { q: searchQuery(language, nowS), sort: 'stars', order: 'desc', per_page: PER_PAGE };
      return toRows(await http.json<Repos>('/search/repositories', Repos, { deadline, query }), nowS);
    },
  },
});
