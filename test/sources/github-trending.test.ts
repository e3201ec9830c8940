import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseLanguage, searchQuery, toRows } from '../../src/sources/github-trending.js';

const NOW = Date.UTC(2026, 10, 22, 12) / 1000;
const repo = (name: string, stars: number, created: string) => ({
  full_name: `o/${name}`,
  html_url: `https://github.com/o/${name}`,
  description: null,
  language: 'Go',
  stargazers_count: stars,
  forks_count: 1,
  created_at: created,
});

describe('github-trending q', () => {
  it('normalizes case and spacing and accepts GitHub language spellings', () => {
    expect(parseLanguage('  Jupyter   Notebook ')).toBe('jupyter notebook');
    expect(['C++', 'c#', 'Objective-C', 'F*', "Ren'Py", '1C Enterprise'].map(parseLanguage)).toEqual([
      'c++',
      'c#',
      'objective-c',
      'f*',
      "ren'py",
      '1c enterprise',
    ]);
  });

  it('refuses empty, punctuation-only and overlong names with a 400', () => {
    for (const q of ['', '-go', 'go;rm', 'a/b', 'x'.repeat(41)]) expect(() => parseLanguage(q), q).toThrow(/language/);
  });

  it('is idempotent: a parsed language parses to itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 +#.-]{0,30}$/), (q) => {
        const once = parseLanguage(q);
        expect(parseLanguage(once)).toBe(once);
      }),
    );
  });

  it('searches from the day 48 hours back and quotes multi-word languages', () => {
    expect(searchQuery('typescript', NOW)).toBe('created:>=2026-11-20 language:typescript');
    expect(searchQuery('jupyter notebook', NOW)).toBe('created:>=2026-11-20 language:"jupyter notebook"');
  });
});

describe('github-trending rows', () => {
  it('drops repositories older than 48 hours, sorts by stars then newest, keeps 10', () => {
    const items = [
      repo('old', 5000, '2026-11-20T11:59:59Z'),
      repo('edge', 10, '2026-11-20T12:00:00Z'),
      repo('a', 50, '2026-11-21T00:00:00Z'),
      repo('b', 50, '2026-11-22T00:00:00Z'),
      ...Array.from({ length: 10 }, (_, i) => repo(`n${i}`, 20 + i, '2026-11-21T06:00:00Z')),
    ];
    const rows = toRows({ items }, NOW);
    expect(rows).toHaveLength(10);
    expect(rows.slice(0, 3).map((r) => [r.rank, r.full_name, r.stars])).toEqual([
      [1, 'o/b', 50],
      [2, 'o/a', 50],
      [3, 'o/n9', 29],
    ]);
    expect(rows.map((r) => r.full_name)).not.toContain('o/old');
    expect(rows[1]!.created_at).toBe(Date.UTC(2026, 10, 21) / 1000);
  });

  it('answers no_data when nothing is new enough', () => {
    expect(() => toRows({ items: [repo('old', 1, '2026-11-19T00:00:00Z')] }, NOW)).toThrow(/last 48 hours/);
  });
});
