/**
 * (b) A paid bundle of 20 queries with 100 ms of simulated upstream latency on every host. Every
 * request asks for 20 new coordinates, so each query really goes upstream. Prints p50/p99 (target
 * p50 ≤ 115 ms: queries run in parallel, so a bundle takes about as long as its slowest query).
 */
import { run, startServer, summary } from './lib.js';
import { Passes } from '../src/payments/passes.js';
import { PaymentsRepo } from '../src/store/repos/payments.js';
import { derivedSecret } from '../src/app.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const LATENCY_MS = 100;

const svc = await startServer({ SVC_RATE_PASS_PER_MIN: '100000000' });
for (const host of ['open-meteo', 'met-no']) svc.sim.fault(host, { kind: 'delay', ms: LATENCY_MS });

// A day pass issued directly in the store, the way a paid POST /api/v1/pass/day would.
const { pass } = await new Passes(new PaymentsRepo(svc.deps.store.db), derivedSecret(svc.deps, 'pass')).issue('day', 'bench', Date.now());

let n = 0;
const body = () => JSON.stringify({ queries: Array.from({ length: 20 }, () => ({ type: 'weather', q: `${(n++ % 17_000) / 200 - 42.5},${(n % 3000) / 20}` })) });

const bundles = (connections: number) =>
  run({
    url: `${svc.url}/api/data/bundle`,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${pass}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
  });

const report: Record<string, unknown> = { bench: 'paid bundle of 20, 100 ms upstream latency', duration_s: DURATION_S, upstream_latency_ms: LATENCY_MS, target_p50_ms: 115 };
for (const connections of [1, 10]) report[`concurrent_bundles_${connections}`] = summary(await bundles(connections));
console.log(JSON.stringify(report, null, 2));
await svc.close();
