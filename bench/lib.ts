import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';

import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { Simulator, loadFixtures } from '../src/demo/simulator.js';

/** The real app on loopback, every upstream served by the simulator, scheduler off, limits out of the way. */
export async function startServer(env: Record<string, string> = {}, pgSchema?: string) {
  const sim = await new Simulator(loadFixtures()).start();
  const config = loadConfig({
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_SCHEDULER: '0',
    SVC_RATE_ANON_PER_MIN: '100000000',
    LOG_LEVEL: 'silent',
    ...sim.env(),
    ...env,
  });
  const deps = await createDeps(config, { pgSchema });
  const app = await buildApp(deps);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    sim,
    deps,
    app,
    close: async () => {
      await app.close();
      await deps.close();
      await sim.close();
    },
  };
}

export const run = (options: Options): Promise<Result> => autocannon(options);

/** autocannon in its own process (bench/cannon.mjs), so the load generator does not share the server's event loop. */
export interface LoadOptions {
  headers?: Record<string, string>;
  requests?: { method?: string; path: string; body?: string }[];
  amount?: number;
}

export function runExternal(url: string, connections: number, durationS: number, options: LoadOptions = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const spec = JSON.stringify({ url, connections, duration: durationS, ...options });
    const child = spawn(process.execPath, [fileURLToPath(new URL('./cannon.mjs', import.meta.url))], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.on('error', reject);
    child.stdin.end(spec);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(out) as Result));
  });
}

export const summary = (r: Result) => ({
  requests_per_s: r.requests.average,
  latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  errors: r.errors,
  non_2xx: r.non2xx,
});

/** Seconds of each load run: `BENCH_DURATION_S` (default 3; the whole suite then takes about four minutes). */
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);

/** This process's CPU seconds (user + system) and peak RSS while `work` runs. */
export async function measured<T>(work: () => Promise<T>): Promise<{ result: T; cpuS: number; peakRssMb: number }> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const before = process.cpuUsage();
  try {
    const result = await work();
    const used = process.cpuUsage(before);
    return { result, cpuS: (used.user + used.system) / 1e6, peakRssMb: Math.round(peak / 1048576) };
  } finally {
    clearInterval(sampler);
  }
}

export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
export const round = (n: number, digits = 3): number => Number(n.toFixed(digits));
export const loadAverage = (): number[] => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
