/**
 * What the freshness fields (issue 35) and the RateLimit fields cost a cached preview (issue 39, 3c: within 3 %).
 * A kept answer is written as stored bytes with the headers the root hooks set, so per answer the two features are
 * bytes in the body (the rows' `as_of`, `as_of_kind`, `age_s`, `stale`: stamped once, when the answer is kept) and
 * two header fields (`RateLimit-Policy`, a constant per tier, and `RateLimit`, one template). The service has no
 * switch for either, and a bench-only one would change the path it measures, so the pair that differs by exactly
 * those is measured instead: the bytes-sending bare route (bench/bare-process.ts) with the preview's bytes and every
 * header, and with the freshness fields taken out of its rows and without the two RateLimit fields. Five alternating
 * rounds, each process's CPU per request from /proc; the difference is also given as a share of the service's own
 * cached preview (lean configuration), measured in the same rounds.
 */
import { withoutFreshness } from '../src/sources/freshness.js';
import type { Row } from '../src/sources/define.js';
import { DURATION_S, bareProcess, round, runExternal, upstreamProcess } from './lib.js';
import { cpuMs, startServerProcess } from './server-process.js';

const CONNECTIONS = 50;
const ROUNDS = 5;
const PREVIEW = '/api/data/preview?type=crypto-price&q=bitcoin,ethereum';
const RATE_LIMIT_FIELDS = ['ratelimit', 'ratelimit-policy'];
const TARGET = 1.03;

/** CPU µs per request the process `pid` spent while serving `url` under load. */
async function cpuPerRequest(url: string, pid: number): Promise<number> {
  const before = cpuMs(pid);
  const result = await runExternal(url, CONNECTIONS, DURATION_S);
  const after = cpuMs(pid);
  return ((after.user - before.user + after.system - before.system) * 1000) / Math.max(1, result.requests.total);
}

/** The preview's body with its rows' freshness fields taken out (the receipt and the rest as they are). */
function withoutFreshnessFields(body: Buffer): Buffer {
  const answer = JSON.parse(body.toString()) as { preview?: Row; rows?: Row[] };
  if (answer.preview) answer.preview = withoutFreshness(answer.preview);
  if (answer.rows) answer.rows = answer.rows.map(withoutFreshness);
  return Buffer.from(JSON.stringify(answer));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function previewFields() {
  const upstreams = await upstreamProcess({});
  const svc = await startServerProcess(upstreams.env);
  const references: Awaited<ReturnType<typeof bareProcess>>[] = [];
  try {
    const url = `${svc.base}${PREVIEW}`;
    await fetch(url).then((r) => r.arrayBuffer());
    const kept = await fetch(url);
    const body = Buffer.from(await kept.arrayBuffer());
    const plainHeaders = new Headers(kept.headers);
    for (const name of RATE_LIMIT_FIELDS) plainHeaders.delete(name);
    const plainBody = withoutFreshnessFields(body);
    const [full, plain] = [await bareProcess(body, kept.headers), await bareProcess(plainBody, plainHeaders)];
    references.push(full, plain);
    for (const u of [url, full.url, plain.url]) await runExternal(u, CONNECTIONS, 2);
    const runs = { preview: [] as number[], with: [] as number[], without: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      runs.with.push(await cpuPerRequest(full.url, full.pid));
      runs.without.push(await cpuPerRequest(plain.url, plain.pid));
      runs.preview.push(await cpuPerRequest(url, svc.pid));
    }
    const [withUs, withoutUs, previewUs] = [median(runs.with), median(runs.without), median(runs.preview)];
    return {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      bytes: { with: body.length, without: plainBody.length },
      cpu_us_per_request: { with: round(withUs, 1), without: round(withoutUs, 1), cached_preview: round(previewUs, 1) },
      cpu_us_of_each_round: Object.fromEntries(Object.entries(runs).map(([name, xs]) => [name, xs.map((x) => round(x, 1))])),
      with_vs_without: round(withUs / withoutUs),
      added_share_of_cached_preview: round((withUs - withoutUs) / previewUs),
      target_ratio: TARGET,
    };
  } finally {
    for (const reference of references) await reference.close();
    svc.child.kill('SIGTERM');
    await upstreams.close();
  }
}
