/**
 * The cached-preview ratio again with Postgres (DATABASE_URL) and Redis (REDIS_URL, which then holds the
 * rate-limit buckets, so every request makes a Redis round trip). Uses a schema and key prefix of its
 * own. Skipped, saying so, when either variable is unset: `DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench`.
 */
import { previewVsBare } from './preview-vs-bare.js';

export async function backendsPreview() {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL) return { skipped: 'set DATABASE_URL and REDIS_URL to measure the preview on Postgres + Redis' };
  const run = `bench_${Date.now().toString(36)}`;
  return previewVsBare({ DATABASE_URL, REDIS_URL, SVC_REDIS_PREFIX: `${run}:` }, { curve: false, pgSchema: run });
}
