/**
 * `npm run bench [-- name…]`: runs every benchmark (or the named ones) one after another and writes one
 * report, bench/results.json, plus bench/throughput.svg (requests/s vs connections, service and bare route).
 * Each figure that has a reference measured in the same run is given as a ratio against it.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { previewVsBare } from './preview-vs-bare.js';
import { previewProfile } from './preview-profile.js';
import { previewConfigs } from './preview-configs.js';
import { previewFields } from './preview-fields.js';
import { serverRss } from './server-rss.js';
import { bundleLatency } from './bundle-latency.js';
import { coldCoalescing } from './cold-coalescing.js';
import { corroborationLatency } from './corroboration-latency.js';
import { entityResolve } from './entity-resolve.js';
import { constitutionalRules } from './constitutional-rules.js';
import { calibrationCurve } from './calibration-curve.js';
import { cachedKeys, previewWithStreams, storedAnswers } from './growth.js';
import { sessionFanout } from './session-fanout-runner.js';
import { backendsPreview } from './backends.js';
import { memoryClients } from './memory-clients.js';
import { throughputChart, type CurvePoint } from './chart.js';
import { transparencyLog } from './transparency-log.js';
import { loggedAnswer } from './logged-answer.js';
import { DURATION_S, loadAverage } from './lib.js';

// `results` is filled in as the benchmarks run: a later one may read an earlier one's figures.
const BENCHES: Record<string, () => object | Promise<object>> = {
  preview_vs_bare: () => previewVsBare(),
  preview_configs: previewConfigs,
  preview_profile: previewProfile,
  preview_fields_cost: previewFields,
  postgres_redis: backendsPreview,
  server_rss: serverRss,
  bundle_latency: bundleLatency,
  cold_coalescing: coldCoalescing,
  corroboration_latency: corroborationLatency,
  entity_resolve: entityResolve,
  constitutional_rules: constitutionalRules,
  calibration_curve: calibrationCurve,
  session_fanout: sessionFanout,
  growth_cached_keys: cachedKeys,
  growth_stored_answers: storedAnswers,
  growth_open_streams: previewWithStreams,
  memory_50k_clients: memoryClients,
  transparency_log: transparencyLog,
  logged_answer: loggedAnswer,
};

// This runs compiled, from dist/bench/ (`npm run bench` builds first); the report goes next to the sources.
const REPORT_DIR = new URL('../../bench/', import.meta.url);
const wanted = process.argv.slice(2);
const results: Record<string, unknown> = {
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version, load_average_at_start: loadAverage() },
  started_at: new Date().toISOString(),
  duration_s_per_load_run: DURATION_S,
};
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const started = performance.now();
  process.stderr.write(`bench ${name}… `);
  try {
    results[name] = { ...(await bench()), load_average: loadAverage(), took_s: Math.round((performance.now() - started) / 1000) };
  } catch (error) {
    results[name] = { error: (error as Error).message };
  }
  process.stderr.write(`${Math.round((performance.now() - started) / 1000)} s\n`);
}
results.finished_at = new Date().toISOString();

// A partial run (named benchmarks) only prints; the full run writes the report and the chart.
if (wanted.length === 0) writeFileSync(new URL('results.json', REPORT_DIR), `${JSON.stringify(results, null, 2)}\n`);
const curve = (results.preview_vs_bare as { throughput_vs_connections?: CurvePoint[] } | undefined)?.throughput_vs_connections;
const subtitle = `${cpus().length} cores, ${process.version}, ${String(results.started_at)}, load average ${loadAverage().join(' ')}`;
if (curve && wanted.length === 0) writeFileSync(new URL('throughput.svg', REPORT_DIR), throughputChart(curve, subtitle));
console.log(JSON.stringify(results, null, 2));
