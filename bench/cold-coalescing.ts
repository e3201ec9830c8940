/**
 * 1,000 concurrent identical previews of a value nobody has fetched yet (1,000 connections, one request
 * each, from a separate process), with 100 ms of upstream latency: single-flight must turn them into one
 * upstream call (target: exactly 1).
 */
import { runExternal, startServer, summary } from './lib.js';

const CLIENTS = 1000;

export async function coldCoalescing() {
  const svc = await startServer();
  try {
    svc.sim!.fault('coingecko', { kind: 'delay', ms: 100 });
    svc.sim!.resetHits();
    const url = `${svc.url}/api/data/preview?type=crypto-price&q=bitcoin,ethereum`;
    const burst = await runExternal(url, CLIENTS, 0, { amount: CLIENTS });
    const after = (await (await fetch(url)).json()) as { ok: boolean; cached: boolean };
    return {
      clients: CLIENTS,
      upstream_latency_ms: 100,
      ...summary(burst),
      answered_2xx: burst['2xx'],
      value_cached_after: after.ok && after.cached,
      upstream_calls: svc.sim!.hits('coingecko'),
      target_upstream_calls: 1,
    };
  } finally {
    await svc.close();
  }
}
