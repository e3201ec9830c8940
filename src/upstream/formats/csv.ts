import type * as CsvParse from 'csv-parse/sync';
import { requireOnce } from '../../core/import-once.js';
import { UpstreamError } from '../errors.js';

/** The one CSV reader (RFC 4180 via csv-parse) for every upstream that answers in CSV. */

export interface CsvOptions {
  /** 1-based line of the header, for files with a preamble before it (Redfin's MLS disclaimer). */
  fromLine?: number;
  /** Renames header cells, e.g. to shorten a column name that carries a note. */
  header?: (name: string) => string;
}

/** Loaded on the first CSV read. */
const csvParse = requireOnce<typeof CsvParse>('csv-parse/sync');

const fail = (upstream: string, e: unknown) =>
  new UpstreamError('upstream_bad_response', `${upstream} sent a CSV that does not parse (${(e as Error).message})`);

/** Rows as arrays of cells, header included; blank lines skipped, ragged rows kept. */
export function csvRows(text: string, upstream: string): string[][] {
  try {
    return csvParse().parse(text, { relax_column_count: true, skip_empty_lines: true });
  } catch (e) {
    throw fail(upstream, e);
  }
}

/** Records keyed by the header's column names. */
export function csvRecords(text: string, upstream: string, { fromLine = 1, header = (h) => h }: CsvOptions = {}): Record<string, string>[] {
  try {
    const columns = (names: string[]) => names.map(header);
    return csvParse().parse<Record<string, string>>(text, {
      from_line: fromLine,
      columns,
      relax_column_count: true,
      skip_empty_lines: true,
    });
  } catch (e) {
    throw fail(upstream, e);
  }
}
