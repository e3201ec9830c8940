import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromArtlist, parseArtlist, phrase, seenAt, topic, type Artlist } from '../../src/sources/lib/gdelt.js';

const parse = topic('<topic>', 'climate');
const art = (url: string, title: string, seendate: string, socialimage = '') => ({
  url,
  url_mobile: '',
  title,
  seendate,
  socialimage,
  domain: 'd.com',
  language: 'English',
  sourcecountry: 'United States',
});

describe('gdelt-events q', () => {
  it('lower-cases, collapses spaces and keeps letters of any script', () => {
    expect(parse('Climate   Change')).toBe('climate change');
    expect(parse("Côte d'Ivoire")).toBe("côte d'ivoire");
    expect(parse('北京 空气')).toBe('北京 空气');
  });

  it('refuses GDELT operators, too short and too long topics', () => {
    for (const q of ['', 'ab', 'x'.repeat(81), '"climate"', 'climate OR (heat)', 'domain:bbc.co.uk', '-climate', 'climate*'])
      expect(() => parse(q), q).toThrow(/<topic>/);
  });

  it('is idempotent, so a key parses back to itself', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9 .'-]{1,78}[a-z0-9.]$/), (q) => {
        const once = parse(q);
        return parse(once) === once;
      }),
    );
  });

  it('searches several words as a phrase', () => {
    expect(phrase('climate')).toBe('climate');
    expect(phrase('climate change')).toBe('"climate change"');
  });
});

describe('GDELT artlist', () => {
  it('reads the compact UTC seendate', () => {
    expect(seenAt('20261122T101500Z')).toBe(1795342500);
    expect(() => seenAt('2026-11-22 10:15')).toThrow(/seendate/);
  });

  it('drops repeated URLs and syndicated titles, then sorts newest first', () => {
    const raw: Artlist = {
      articles: [
        art('https://a/1', 'Old story', '20261122T080000Z'),
        art('https://a/2', ' Big Story ', '20261122T100000Z', 'https://img/2.jpg'),
        art('https://b/2', 'big story', '20261122T103000Z'),
        art('https://a/1', 'Old story again', '20261122T090000Z'),
      ],
    };
    expect(fromArtlist(raw, 10).map((a) => [a.url, a.title, a.seen_at, a.image_url])).toEqual([
      ['https://a/2', 'Big Story', 1795341600, 'https://img/2.jpg'],
      ['https://a/1', 'Old story', 1795334400, null],
    ]);
    expect(fromArtlist(raw, 1)).toHaveLength(1);
  });

  it('reads a missing or empty article list as no data', () => {
    expect(() => fromArtlist({}, 10)).toThrow(expect.objectContaining({ reason: 'no_data' }));
    expect(() => fromArtlist({ articles: [] }, 10)).toThrow(expect.objectContaining({ reason: 'no_data' }));
  });

  it("quotes GDELT's plain-text refusal and refuses JSON of another shape", () => {
    expect(() => parseArtlist('The specified phrase is too short.\n')).toThrow(
      /GDELT refused the query: The specified phrase is too short\./,
    );
    expect(() => parseArtlist('{"articles":[{"url":1}]}')).toThrow(/unexpected shape/);
    expect(parseArtlist('{}')).toEqual({});
  });
});
