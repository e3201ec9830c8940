/**
 * The cached preview on Postgres (DATABASE_URL) + Redis (REDIS_URL, which then holds the shared
 * rate-limit buckets; a request spends tokens leased from them in batches) against the same preview
 * on SQLite with the in-process cache. Both servers run in this process at once (the Postgres one in
 * a schema and key prefix of its own) and are loaded in alternating pairs of runs, so the machine's
 * swings hit both alike; the pair with the median throughput ratio is reported, every pair's ratio
 * next to it, and the CPU per request of each. Skipped, saying so, when either variable is unset:
 * `DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench`.
 */
import { DURATION_S, measured, round, runExternal, startServer, summary } from './lib.js';

const CONNECTIONS = 50;
const PAIRS = 3;
const WARM_UP_S = 3;

const previewOf = (base: string) => `${base}/api/data/preview?type=crypto-price&q=bitcoin,ethereum`;

export async function backendsPreview() {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL) return { skipped: 'set DATABASE_URL and REDIS_URL to measure the preview on Postgres + Redis' };
  const run = `bench_${Date.now().toString(36)}`;
  const sqlite = await startServer();
  const shared = await startServer({ DATABASE_URL, REDIS_URL, SVC_REDIS_PREFIX: `${run}:` }, { pgSchema: run });
  try {
    const urls = { sqlite: previewOf(sqlite.url), shared: previewOf(shared.url) };
    for (const url of Object.values(urls)) {
      await fetch(url); // cold: goes upstream
      await fetch(url); // cached: its signed bytes are kept
      await runExternal(url, CONNECTIONS, WARM_UP_S);
    }
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const onSqlite = await measured(() => runExternal(urls.sqlite, CONNECTIONS, DURATION_S));
      const onShared = await measured(() => runExternal(urls.shared, CONNECTIONS, DURATION_S));
      pairs.push({ onSqlite, onShared, ratio: onShared.result.requests.average / onSqlite.result.requests.average });
    }
    const median = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(PAIRS / 2)]!;
    const cpuUs = (m: (typeof median)['onSqlite']) => (m.cpuS * 1e6) / m.result.requests.total;
    return {
      connections: CONNECTIONS,
      sqlite: summary(median.onSqlite.result),
      postgres_redis: summary(median.onShared.result),
      ratio: round(median.ratio),
      ratio_of_each_pair: pairs.map((pair) => round(pair.ratio)),
      cpu_us_per_request: { sqlite: round(cpuUs(median.onSqlite), 1), postgres_redis: round(cpuUs(median.onShared), 1) },
      cpu_ratio_sqlite_vs_postgres_redis: round(cpuUs(median.onSqlite) / cpuUs(median.onShared)),
      target_ratio: 0.9,
    };
  } finally {
    await shared.close();
    await sqlite.close();
  }
}
