/**
 * Pass-paid bundles of 20 queries, every host answering after 100 ms (the slowest upstream), 1 and 10
 * bundles at a time. Every bundle asks for 20 new coordinates, so each query really goes upstream.
 * Figures: p50/p99 and p50 minus the slowest upstream (target ≤ 15 ms at 10 concurrent bundles).
 */
import { DURATION_S, run, startServer, summary } from './lib.js';
import { Passes } from '../src/payments/passes.js';
import { PaymentsRepo } from '../src/store/repos/payments.js';
import { derivedSecret } from '../src/app.js';

const LATENCY_MS = 100;

export async function bundleLatency() {
  const svc = await startServer({ SVC_RATE_PASS_PER_MIN: '100000000' });
  try {
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
    const report: Record<string, unknown> = { slowest_upstream_ms: LATENCY_MS, target_p50_over_slowest_ms: 15 };
    for (const connections of [1, 10]) {
      const figures = summary(await bundles(connections));
      report[`concurrent_bundles_${connections}`] = { ...figures, p50_over_slowest_ms: figures.latency_ms.p50 - LATENCY_MS };
    }
    return report;
  } finally {
    await svc.close();
  }
}
