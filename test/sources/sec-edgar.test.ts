import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForm, toRows } from '../../src/sources/sec-edgar.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fromAtom, fromEfts, type Filing } from '../../src/sources/lib/edgar-feeds.js';

const entry = (form: string, name: string, role: string, acc: string, updated = '2026-11-20T10:00:00-05:00') => `<entry>
<title>${form} - ${name} (0001234567) (${role})</title>
<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/1234567/${acc.replace(/-/g, '')}/${acc}-index.htm"/>
<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; 2026-11-20 &lt;b&gt;AccNo:&lt;/b&gt; ${acc} &lt;b&gt;Size:&lt;/b&gt; 9 KB</summary>
<updated>${updated}</updated>
<category scheme="https://www.sec.gov/" label="form type" term="${form}"/>
<id>urn:tag:sec.gov,2008:accession-number=${acc}</id>
</entry>`;
const feed = (...entries: string[]) =>
  `<?xml version="1.0" encoding="ISO-8859-1" ?><feed xmlns="http://www.w3.org/2005/Atom"><title>Latest Filings</title>${entries.join('')}</feed>`;

describe('sec-edgar form', () => {
  it('ignores case, spaces and dashes', () => {
    expect(['8k', '8-K', '10q', 'def14a', 'DEF 14A', '13f', 's-1'].map(parseForm)).toEqual([
      '8-K',
      '8-K',
      '10-Q',
      'DEF 14A',
      'DEF 14A',
      '13F',
      'S-1',
    ]);
  });

  it('refuses forms outside the documented list and lists the allowed ones', () => {
    for (const q of ['', '8', '13G', 'form 4']) {
      expect(() => parseForm(q), q).toThrow(
        expect.objectContaining({ details: expect.objectContaining({ allowed: expect.arrayContaining(['8-K', '13F']) }) }),
      );
    }
  });
});

describe('sec-edgar Atom feed', () => {
  it('reads a single-entry feed, with role and items', () => {
    const [f] = fromAtom(
      feed(
        entry('8-K', 'ACME &amp; SONS INC', 'Filer', '0001234567-26-000001').replace(
          '9 KB',
          '9 KB&lt;br&gt;Item 2.02: Results&lt;br&gt;Item 9.01: Exhibits',
        ),
      ),
    );
    expect(f).toMatchObject({
      form: '8-K',
      company: 'ACME & SONS INC',
      cik: '0001234567',
      role: 'filer',
      items: ['2.02', '9.01'],
      accepted_at: Date.UTC(2026, 10, 20, 15) / 1000,
    });
  });

  it('keeps exact forms only, since type= is a prefix match', () => {
    const filings = fromAtom(
      feed(
        entry('4', 'A', 'Issuer', '0000000001-26-000001'),
        entry('40-F', 'B', 'Filer', '0000000002-26-000002'),
        entry('4/A', 'C', 'Issuer', '0000000003-26-000003'),
        entry('424B2', 'D', 'Filer', '0000000004-26-000004'),
      ),
    );
    expect(toRows(filings, '4').map((r) => r.form)).toEqual(['4', '4/A']);
  });

  it('lists a Form 4 once although the issuer and the reporting owner both appear', () => {
    const filings = fromAtom(
      feed(entry('4', 'DOE JANE', 'Reporting', '0000000001-26-000001'), entry('4', 'ISSUER CORP', 'Issuer', '0000000001-26-000001')),
    );
    expect(toRows(filings, '4')).toEqual([expect.objectContaining({ company: 'ISSUER CORP', role: 'issuer' })]);
  });

  it('serves 13F as the holdings report and its amendment', () => {
    const filings = fromAtom(
      feed(
        entry('13F-HR', 'FUND LP', 'Filer', '0000000001-26-000001'),
        entry('13F-HR/A', 'FUND LP', 'Filer', '0000000002-26-000002'),
        entry('13F-NT', 'X', 'Filer', '0000000003-26-000003'),
      ),
    );
    expect(toRows(filings, '13F').map((r) => r.form)).toEqual(['13F-HR', '13F-HR/A']);
  });

  it('refuses pages that are not an Atom feed', () => {
    expect(() => fromAtom('<html><body>Request Rate Threshold Exceeded</body></html>')).toThrow(
      expect.objectContaining({ reason: 'upstream_bad_response' }),
    );
  });
});

describe('sec-edgar full-text search', () => {
  const hit = (adsh: string, file: string, name: string, date = '2026-11-20') => ({
    _source: { ciks: ['0000320193'], display_names: [name], form: '10-K', file_date: date, adsh },
  });

  it('strips ticker and CIK from names, builds the index URL and lists each filing once', () => {
    const filings: Filing[] = fromEfts({
      hits: {
        hits: [
          hit('0000320193-26-000105', 'aapl.htm', 'Apple Inc.  (AAPL)  (CIK 0000320193)'),
          hit('0000320193-26-000105', 'ex21.htm', 'Apple Inc.  (AAPL)  (CIK 0000320193)'),
          hit('0001047469-26-000002', 'b.htm', 'Berkshire Hathaway Inc  (BRK-A, BRK-B)  (CIK 0001067983)', '2026-11-21'),
        ],
      },
    });
    const rows = toRows(filings, '10-K');
    expect(rows.map((r) => r.company)).toEqual(['Berkshire Hathaway Inc', 'Apple Inc.']);
    expect(rows[1]).toMatchObject({
      url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019326000105/0000320193-26-000105-index.htm',
      role: null,
      as_of: Date.UTC(2026, 10, 20) / 1000,
    });
  });
});

describe('sec-edgar charset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['the XML declaration', 'application/atom+xml'],
    ['the Content-Type header', 'application/atom+xml; charset=ISO-8859-1'],
  ])('decodes a Latin-1 feed by %s (regression: names came out as U+FFFD)', async (_by, contentType) => {
    const filing = entry('6-K', 'SOCIÉTÉ GÉNÉRALE', 'Filer', '0001238766-26-000001');
    t.sim.serve({
      host: 'sec-edgar',
      path: '/cgi-bin/browse-edgar',
      headers: { 'content-type': contentType },
      charset: 'latin1',
      body: feed(filing),
    });
    const result = await t.deps.sources.run('sec-edgar', '6-K', { maxAgeS: 0 });
    t.sim.clearOverrides();
    expect(result.ok && result.rows[0]).toMatchObject({ company: 'SOCIÉTÉ GÉNÉRALE', form: '6-K' });
  });
});
