/**
 * The cached-preview ratio again with Postgres (DATABASE_URL) and Redis (REDIS_URL, which then holds the
 * shared rate-limit buckets; a request spends tokens leased from them in batches). Uses a schema and key
 * prefix of its own; with the SQLite run of the same benchmark, also the ratio between the two. Skipped, saying so, when either variable is unset: `DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench`.
 */
import { round } from './lib.js';
import { previewVsBare } from './preview-vs-bare.js';

/** The SQLite figures of the same run (`preview_vs_bare`), when it ran: the Postgres + Redis figures are also given against them. */
interface SqliteRun {
  ratio: number;
  cpu_us_per_request: { preview: number };
}

export async function backendsPreview(sqlite?: SqliteRun) {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL) return { skipped: 'set DATABASE_URL and REDIS_URL to measure the preview on Postgres + Redis' };
  const run = `bench_${Date.now().toString(36)}`;
  const result = await previewVsBare({ DATABASE_URL, REDIS_URL, SVC_REDIS_PREFIX: `${run}:` }, { curve: false, pgSchema: run });
  if (!sqlite) return result;
  // Each ratio is against the bare route measured next to it, so their quotient cancels the machine's swings.
  return {
    ...result,
    vs_sqlite: {
      throughput: round(result.ratio / sqlite.ratio),
      cpu_sqlite_vs_postgres_redis: round(sqlite.cpu_us_per_request.preview / result.cpu_us_per_request.preview),
      target: 0.9,
    },
  };
}
