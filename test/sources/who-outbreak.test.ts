import { describe, expect, it } from 'vitest';
import { fromDons, fromReports, parseLabel, toRows, type Entry } from '../../src/sources/who-outbreak.js';
import { plainText } from '../../src/sources/lib/html-text.js';

const entry = (title: string, day: number, url = `https://x/${title}`): Entry => ({
  don_id: null,
  title,
  published_at: day * 86_400,
  url,
  summary: null,
});

describe('who-outbreak label', () => {
  it('lower-cases and collapses spaces so spellings share a cache entry', () => {
    expect(parseLabel('Latest')).toBe('latest');
    expect(parseLabel('Marburg   Virus')).toBe('marburg virus');
    expect(parseLabel("Côte d'Ivoire")).toBe("côte d'ivoire");
    expect(parseLabel('A(H5N1)')).toBe('a(h5n1)');
  });

  it('refuses empty, one-letter, symbol and overlong labels', () => {
    for (const q of ['', 'x', '$latest', 'a;b', '<b>', 'x'.repeat(41)]) expect(() => parseLabel(q), q).toThrow(/<label>/);
  });
});

describe('who-outbreak text', () => {
  it('drops tags, decodes entities and cuts at a word', async () => {
    expect(await plainText('<p>18&nbsp;406 cases &amp; 412 deaths</p><p>in&nbsp;Sudan.</p>', 400)).toBe(
      '18 406 cases & 412 deaths in Sudan.',
    );
    expect(await plainText('<p>alpha beta gamma delta</p>', 12)).toBe('alpha beta…');
    expect(await plainText('abcdefghij', 4)).toBe('abcd…');
    expect(await plainText('<p>R&eacute;publique d&#233;mocratique &ndash; 3&times;</p>', 400)).toBe('République démocratique – 3×');
  });
});

describe('who-outbreak rows', () => {
  it('sorts newest first, keeps one row per page and matches titles case-insensitively', () => {
    const rows = toRows(
      [entry('Cholera - Sudan', 3), entry('Mpox - Uganda', 5), entry('Cholera - Sudan', 3), entry('cholera - Chad', 9)],
      'cholera',
    );
    expect(rows.map((r) => r.title)).toEqual(['cholera - Chad', 'Cholera - Sudan']);
    expect(rows[0]!.as_of).toBe(9 * 86_400);
  });

  it('keeps at most ten entries for latest', () => {
    expect(
      toRows(
        Array.from({ length: 14 }, (_, i) => entry(`E${i}`, i)),
        'latest',
      ),
    ).toHaveLength(10);
  });

  it('says no_data when nothing matches', () => {
    expect(() => toRows([entry('Mpox - Uganda', 1)], 'ebola')).toThrow(
      expect.objectContaining({ reason: 'no_data', message: expect.stringContaining('"ebola"') }),
    );
  });

  it('prefers the override title and builds the public page URL', async () => {
    const [e] = await fromDons({
      value: [
        {
          Title: 'Cholera',
          OverrideTitle: 'Cholera - Global situation',
          UrlName: '2026-DON630',
          PublicationDate: '2026-11-20T00:00:00Z',
          DonId: null,
          Summary: null,
        },
      ],
    });
    expect(e).toEqual({
      don_id: null,
      title: 'Cholera - Global situation',
      published_at: Date.UTC(2026, 10, 20) / 1000,
      url: 'https://www.who.int/emergencies/disease-outbreak-news/item/2026-DON630',
      summary: null,
    });
  });

  it('reads ReliefWeb reports, falling back to the node URL without an alias', () => {
    const [e] = fromReports({
      data: [
        {
          fields: {
            title: 'Disease Outbreak News: Cholera - Chad',
            url: 'https://reliefweb.int/node/1',
            date: { created: '2026-11-20T10:00:00+00:00' },
          },
        },
      ],
    });
    expect(e).toMatchObject({ url: 'https://reliefweb.int/node/1', published_at: Date.UTC(2026, 10, 20, 10) / 1000 });
  });
});
