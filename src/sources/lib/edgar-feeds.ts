import Type from 'typebox';
import { parseUnixSeconds } from '../../core/clock.js';
import { parseFeed } from '../../upstream/formats/feed.js';

/** SEC EDGAR's two listings of recent filings (latest-filings Atom feed, full-text search JSON) as one shape. */

const ARCHIVES = 'https://www.sec.gov/Archives/edgar/data';

export interface Filing {
  form: string;
  company: string;
  cik: string;
  role: string | null;
  accession_no: string;
  filed_date: string;
  accepted_at: number | null;
  items: string[] | null;
  url: string;
}

const TITLE = /^.+? - (.+) \((\d{10})\) \(([^)]+)\)$/;
/** Atom `getcurrent` entries: `FORM - NAME (CIK) (Role)` titles, `Filed:` and `Item n.nn` in the summary, accession in the id. */
export function fromAtom(text: string): Filing[] {
  return parseFeed(text, 'EDGAR').flatMap((e) => {
    const title = TITLE.exec(e.title ?? '');
    const summary = e.summary ?? '';
    const accession = /accession-number=([\d-]+)/.exec(e.id ?? '')?.[1];
    const filed = /Filed:(?:<\/b>)?\s*(\d{4}-\d{2}-\d{2})/.exec(summary)?.[1];
    if (!title || !accession || !filed || e.category === null || e.link === null) return [];
    const items = [...summary.matchAll(/Item (\d+\.\d+)/g)].map((m) => m[1]!);
    return [
      {
        form: e.category,
        company: title[1]!,
        cik: title[2]!,
        role: title[3]!.toLowerCase(),
        accession_no: accession,
        filed_date: filed,
        accepted_at: parseUnixSeconds(e.date ?? ''),
        items: [...new Set(items)],
        url: e.link,
      },
    ];
  });
}

export const Efts = Type.Object({
  hits: Type.Object({
    hits: Type.Array(
      Type.Object({
        _source: Type.Object({
          ciks: Type.Array(Type.String()),
          display_names: Type.Array(Type.String()),
          form: Type.String(),
          file_date: Type.String(),
          adsh: Type.String(),
        }),
      }),
    ),
  }),
});
export type Efts = Type.Static<typeof Efts>;

/** Full-text search hits are documents (a filing's exhibits are hits too); `Name (TICKER)  (CIK 0000000000)` loses its suffixes. */
export const fromEfts = (raw: Efts): Filing[] =>
  raw.hits.hits.map(({ _source: s }) => ({
    form: s.form,
    company: (s.display_names[0] ?? '').replace(/\s*\(CIK \d+\)\s*$/, '').replace(/\s*\([A-Z0-9.,\s-]+\)\s*$/, ''),
    cik: s.ciks[0] ?? '',
    role: null,
    accession_no: s.adsh,
    filed_date: s.file_date,
    accepted_at: null,
    items: null,
    url: `${ARCHIVES}/${Number(s.ciks[0])}/${s.adsh.replace(/-/g, '')}/${s.adsh}-index.htm`,
  }));
