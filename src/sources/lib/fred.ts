import { UpstreamError } from '../../upstream/errors.js';
import { csvRows } from '../../upstream/formats/csv.js';

/** FRED observations and the keyless fredgraph CSV, shared by the types that read FRED series. */

export interface Observation {
  date: string;
  value: number;
}

/** FRED marks a missing value with "."; those are dropped. Order is kept. */
export const parseObservations = (raw: { date: string; value: string }[]): Observation[] =>
  raw
    .filter((o) => o.value !== '.' && o.value.trim() !== '' && Number.isFinite(Number(o.value)))
    .map((o) => ({ date: o.date, value: Number(o.value) }));

/** `observation_date,DGS10` (older files: `DATE,…`) CSV, oldest first → newest first. */
export function parseFredCsv(csv: string): Observation[] {
  if (!/^(observation_date|DATE),/i.test(csv.trimStart())) {
    throw new UpstreamError('upstream_bad_response', 'fredgraph did not answer with CSV');
  }
  const raw = csvRows(csv, 'fredgraph')
    .slice(1)
    .map(([date = '', value = '']) => ({ date, value }));
  return parseObservations(raw).reverse();
}

/** `YYYY-MM-DD`, `days` before `nowMs`: the `cosd` start date that keeps fredgraph downloads small. */
export const isoDaysAgo = (nowMs: number, days: number) => new Date(nowMs - days * 86_400_000).toISOString().slice(0, 10);
