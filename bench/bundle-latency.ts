/**
 * Pass-paid bundles of 20 queries, every host answering after 100 ms (the slowest upstream), 1 and 10
 * bundles at a time; the load and the upstream simulator each run in a process of their own. Every
 * bundle asks for 20 new coordinates, so each query really goes upstream. Figures: p50/p99, p50 minus
 * the slowest upstream (target ≤ 15 ms at 10 concurrent bundles) and the server's CPU per bundle
 * (what a busy machine turns into queueing).
 */
import { DURATION_S, measured, round, runExternal, startServer, summary, upstreamProcess } from './lib.js';
import { Passes } from '../src/payments/passes.js';
import { PaymentsRepo } from '../src/store/repos/payments.js';
import { derivedSecret } from '../src/core/secrets.js';

const LATENCY_MS = 100;
const QUERIES = 20;

/** Bundles of 20 distinct coordinates; `first` keeps each run's coordinates new. */
const bundles = (count: number, first: number) =>
  Array.from({ length: count }, (_, b) => {
    const queries = Array.from({ length: QUERIES }, (_, i) => {
      const n = first + b * QUERIES + i;
      return { type: 'weather', q: `${(n % 170) - 85},${(Math.floor(n / 170) % 360) - 180}` };
    });
    return { method: 'POST', path: '/api/data/bundle', body: JSON.stringify({ queries }) };
  });

export async function bundleLatency() {
  // Upstreams are other machines: the simulator answering them runs in its own process.
  const upstreams = await upstreamProcess({ 'open-meteo': LATENCY_MS, 'met-no': LATENCY_MS });
  const svc = await startServer({ SVC_RATE_PASS_PER_MIN: '100000000' }, { upstreams });
  try {
    // A day pass issued directly in the store, the way a paid POST /api/v1/pass/day would.
    const { pass } = await new Passes(new PaymentsRepo(svc.deps.store.db), derivedSecret(svc.deps.signingKey.privateKey, 'pass')).issue(
      'day',
      'bench',
      Date.now(),
    );
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${pass}` };
    const report: Record<string, unknown> = { queries_per_bundle: QUERIES, slowest_upstream_ms: LATENCY_MS };
    report.target_p50_over_slowest_ms = 15;
    let first = 0;
    for (const connections of [1, 10]) {
      // More bundles than a run can send, so no coordinate repeats (at most ~9 bundles/s per connection).
      const requests = bundles(connections * DURATION_S * 12, first);
      first += requests.length * QUERIES;
      const { result, cpuS } = await measured(() => runExternal(svc.url, connections, DURATION_S, { headers, requests }));
      const figures = summary(result);
      report[`concurrent_bundles_${connections}`] = {
        ...figures,
        p50_over_slowest_ms: figures.latency_ms.p50 - LATENCY_MS,
        server_cpu_ms_per_bundle: round((cpuS * 1000) / result.requests.total, 2),
      };
    }
    return report;
  } finally {
    await svc.close();
  }
}
