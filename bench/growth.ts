/**
 * Cost of growth: the per-request cost must not grow with data. Each pair is measured in one server:
 * cached previews over 10 vs 9,990 distinct cached keys (the hot-answer store holds 10,000); paid-replay lookups with 10 vs 100,000 stored
 * answers; cached-preview latency with 1 vs 1,000 open SSE streams. Ratios near 1 are the target.
 */
import { sql } from 'kysely';
import { connect, type Socket } from 'node:net';
import { Passes } from '../src/payments/passes.js';
import { PaymentsRepo } from '../src/store/repos/payments.js';
import { IdempotencyRepo } from '../src/store/repos/idempotency.js';
import { derivedSecret } from '../src/core/secrets.js';
import { MAX_ANSWERS } from '../src/data/hot-answers.js';
import { DURATION_S, measured, percentile, round, runExternal, startServer } from './lib.js';

type Server = Awaited<ReturnType<typeof startServer>>;
const CONNECTIONS = 50;

/** Weather previews of `count` distinct coordinates, each fetched once and then kept hot. */
const weatherPaths = (count: number, offset: number) =>
  Array.from(
    { length: count },
    (_, i) => `/api/data/preview?type=weather&q=${-60 + ((offset + i) % 120)},${-170 + Math.floor((offset + i) / 120)}`,
  );

async function warm(svc: Server, paths: string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += CONNECTIONS) {
    const batch = paths.slice(i, i + CONNECTIONS);
    await Promise.all(batch.map((path) => fetch(svc.url + path).then((r) => r.arrayBuffer())));
    await Promise.all(batch.map((path) => fetch(svc.url + path).then((r) => r.arrayBuffer())));
  }
}

async function previewLoad(svc: Server, paths: string[]) {
  const { result, cpuS } = await measured(() =>
    runExternal(svc.url, CONNECTIONS, DURATION_S, { requests: paths.map((path) => ({ method: 'GET', path })) }),
  );
  const cpuUs = round((cpuS * 1e6) / result.requests.total, 1);
  return {
    requests_per_s: Math.round(result.requests.average),
    latency_ms_p99: result.latency.p99,
    cpu_us_per_request: cpuUs,
    non_2xx: result.non2xx,
  };
}

export async function cachedKeys() {
  const svc = await startServer();
  try {
    const few = weatherPaths(10, 0);
    // Both sets stay kept: one more than the store holds, walked in a cycle, would evict each answer just before its turn.
    const many = weatherPaths(MAX_ANSWERS - few.length, few.length);
    await warm(svc, [...few, ...many]);
    const small = await previewLoad(svc, few);
    const large = await previewLoad(svc, many);
    const cpuRatio = round(large.cpu_us_per_request / small.cpu_us_per_request, 2);
    return { keys_10: small, keys_9990: large, cpu_ratio_large_vs_small: cpuRatio, target_ratio: 1 };
  } finally {
    await svc.close();
  }
}

/** The idempotent request's look-up (behind a paid retry's replay) with 10, then 100,000 stored paid answers. */
export async function storedAnswers() {
  const svc = await startServer();
  try {
    const repo = new IdempotencyRepo(svc.deps.store.db);
    const report: Record<string, unknown> = {};
    for (const [size, total] of [
      [10, 10],
      [100_000, 100_010],
    ] as const) {
      await sql`
        insert into idempotent_requests (key, request_key, caller, owner, lease_until, state, created_at, expires_at, response_json)
        with recursive n(i) as (select ${total - size + 1} union all select i + 1 from n where i < ${total})
        select 'key-' || cast(i as integer), 'req-' || cast(i as integer), 'caller', 'owner', 0, 'done', 0, 0, '{"status":200,"headers":{},"body":"{}"}' from n
      `.execute(svc.deps.store.db);
      const times: number[] = [];
      for (let i = 0; i < 2000; i++) {
        const n = total - (i % size);
        const start = performance.now();
        if (!(await repo.find(`key-${n}`))?.response_json) throw new Error(`stored answer key-${n} not found`);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      report[`stored_${size}`] = { p50_ms: round(percentile(times, 50), 4), p99_ms: round(percentile(times, 99), 4) };
    }
    const ratio = (report.stored_100000 as { p50_ms: number }).p50_ms / (report.stored_10 as { p50_ms: number }).p50_ms;
    return { ...report, p50_ratio_large_vs_small: round(ratio, 2), target_ratio: 1 };
  } finally {
    await svc.close();
  }
}

/** Open SSE streams (pass holders: no per-IP cap), each waiting for its first bytes. */
function openStreams(svc: Server, pass: string, count: number): Promise<Socket[]> {
  const { port } = new URL(svc.url);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), '127.0.0.1', () =>
            socket.write(
              `GET /api/data/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${pass}\r\nAccept: text/event-stream\r\n\r\n`,
            ),
          );
          socket.once('data', () => resolve(socket));
          socket.on('error', reject);
        }),
    ),
  );
}

export async function previewWithStreams() {
  const svc = await startServer({ SVC_RATE_PASS_PER_MIN: '100000000' });
  const sockets: Socket[] = [];
  try {
    const { pass } = await new Passes(new PaymentsRepo(svc.deps.store.db), derivedSecret(svc.deps.signingKey.privateKey, 'pass')).issue(
      'day',
      'bench',
      Date.now(),
    );
    const paths = weatherPaths(1, 0);
    await warm(svc, paths);
    const report: Record<string, unknown> = {};
    for (const streams of [1, 1000]) {
      sockets.push(...(await openStreams(svc, pass, streams - sockets.length)));
      report[`streams_${streams}`] = await previewLoad(svc, paths);
    }
    const [one, many] = [report.streams_1, report.streams_1000] as { latency_ms_p99: number; cpu_us_per_request: number }[];
    return { ...report, cpu_ratio_many_vs_one: round(many!.cpu_us_per_request / one!.cpu_us_per_request, 2), target_ratio: 1 };
  } finally {
    for (const socket of sockets) socket.destroy();
    await svc.close();
  }
}
