import type { Row, SourceDescriptor } from './define.js';
import { stampRows, type CachedValue, type RunnerDeps } from './result.js';

/**
 * A type's curated data set, asked once every upstream has failed; undefined when it has no entry for q.
 * A curated row cites its origin in `source` (`curated: <publisher>; <url>; retrieved <date>`).
 */
export async function curatedValue(
  descriptor: SourceDescriptor,
  q: unknown,
  { clock, config }: Pick<RunnerDeps, 'clock' | 'config'>,
): Promise<CachedValue | undefined> {
  const rows = (await descriptor.curated?.(q, { clock, config })) ?? [];
  if (rows.length === 0) return undefined;
  const cited = (row: Row) => (typeof row.source === 'string' ? row.source : 'curated');
  return stampRows('curated', rows, clock.now(), { rowSource: cited, nextUpdate: descriptor.nextUpdate });
}
