/**
 * A cached, signed preview versus a bare Fastify route in its own process (bench/bare-process.ts)
 * sending the preview's very bytes, pre-serialized, with the same headers; autocannon runs in a third
 * process. Figures: both throughputs at 50 connections and their ratio (target ≥ 0.7), each server's
 * CPU per request, the same with If-None-Match (304s), the server's CPU seconds per 1,000 cached
 * previews, its peak RSS under the load, and throughput vs connections for the chart.
 *
 * On two shared cores one run of each swings by a third, so after a warm-up the two are measured in
 * PAIRS alternating runs (preview, then bare) and the pair with the median ratio is reported, with
 * every pair's ratio next to it.
 */
import { DURATION_S, bareProcess, measured, round, runExternal, startServer, summary } from './lib.js';
import { cpuMs } from './server-process.js';

const CONNECTIONS = 50;
const CURVE_CONNECTIONS = [1, 10, 50, 100];
const PAIRS = 3;
const WARM_UP_S = 3;

export async function previewVsBare(env: Record<string, string> = {}, options: { curve?: boolean; pgSchema?: string } = {}) {
  const { curve = true, pgSchema } = options;
  const svc = await startServer(env, { pgSchema });
  let bare: Awaited<ReturnType<typeof bareProcess>> | undefined;
  try {
    const previewUrl = `${svc.url}/api/data/preview?type=crypto-price&q=bitcoin,ethereum`;
    await fetch(previewUrl); // cold: goes upstream
    const warm = await fetch(previewUrl); // cached: its signed bytes are kept
    // The bare route sends these very bytes and headers, so both put the same response on the wire.
    bare = await bareProcess(Buffer.from(await warm.arrayBuffer()), warm.headers);
    const bareUrl = bare.url;
    const barePid = bare.pid;

    // Both measured JIT-compiled and with the start-up garbage collected (a first run would pay for both).
    await runExternal(previewUrl, CONNECTIONS, WARM_UP_S);
    await runExternal(bareUrl, CONNECTIONS, WARM_UP_S);
    const idleRssMb = Math.round(process.memoryUsage.rss() / 1048576);
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const preview = await measured(() => runExternal(previewUrl, CONNECTIONS, DURATION_S));
      const bare = await measuredProcess(barePid, () => runExternal(bareUrl, CONNECTIONS, DURATION_S));
      pairs.push({ preview, bare, ratio: preview.result.requests.average / bare.result.requests.average });
    }
    const { preview: previews, bare: bareRun } = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(PAIRS / 2)]!;
    // The ETag of the answer kept now: on a loaded machine the runs above can outlast the value's TTL, and a refetched value has new bytes.
    const etag = (await fetch(previewUrl)).headers.get('etag') ?? '';
    const notModified = await runExternal(previewUrl, CONNECTIONS, DURATION_S, { headers: { 'if-none-match': etag } });
    const cpuUs = (run: { cpuS: number; result: { requests: { total: number } } }) => (run.cpuS * 1e6) / run.result.requests.total;
    const peakRssMb = Math.max(...pairs.map((pair) => pair.preview.peakRssMb));
    return {
      connections: CONNECTIONS,
      preview: summary(previews.result),
      bare: summary(bareRun.result),
      ratio: round(previews.result.requests.average / bareRun.result.requests.average),
      ratio_of_each_pair: pairs.map((pair) => round(pair.ratio)),
      target_ratio: 0.7,
      // Server CPU per answer does not depend on what else the machine runs: the ratio to read on a busy host.
      cpu_us_per_request: { preview: round(cpuUs(previews), 1), bare: round(cpuUs(bareRun), 1) },
      cpu_ratio_bare_vs_preview: round(cpuUs(bareRun) / cpuUs(previews)),
      if_none_match_304: { ...summary(notModified), status_304: notModified['3xx'] },
      cpu_s_per_1000_cached_previews: round(cpuUs(previews) / 1000, 4),
      // The server and simulator share this process; idle = before the load started.
      server_rss_mb: { idle: idleRssMb, peak_under_load: peakRssMb, growth_under_load: peakRssMb - idleRssMb },
      target_rss_mb: 200,
      ...(curve ? { throughput_vs_connections: await throughputCurve(previewUrl, bareUrl) } : {}),
    };
  } finally {
    await bare?.close();
    await svc.close();
  }
}

/** A process's CPU seconds (from /proc, 10 ms ticks) while `work` runs. */
async function measuredProcess<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; cpuS: number }> {
  const before = cpuMs(pid);
  const result = await work();
  const after = cpuMs(pid);
  return { result, cpuS: (after.user - before.user + after.system - before.system) / 1000 };
}

/** Requests/s of both routes at each connection count, run back to back (shorter runs: it is a shape, not a figure). */
async function throughputCurve(previewUrl: string, bareUrl: string) {
  const points = [];
  for (const connections of CURVE_CONNECTIONS) {
    const seconds = Math.max(1, Math.round(DURATION_S / 2));
    const preview = await runExternal(previewUrl, connections, seconds);
    const bare = await runExternal(bareUrl, connections, seconds);
    points.push({ connections, preview_rps: Math.round(preview.requests.average), bare_rps: Math.round(bare.requests.average) });
  }
  return points;
}
