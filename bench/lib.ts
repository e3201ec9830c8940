import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';

import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { Simulator } from '../src/demo/simulator.js';
import { loadFixtures } from '../src/upstream/fixtures.js';
import type { Registry } from '../src/sources/registry.js';

/** Upstreams served from elsewhere: the UPSTREAM_* environment pointing at them, and how to stop them. */
export interface Upstreams {
  env: Record<string, string>;
  close: () => Promise<void>;
}

/** The simulator in this process: it shares the server's event loop (fine where upstream work is negligible). */
async function inProcessUpstreams() {
  const sim = await new Simulator(loadFixtures()).start();
  return { sim, env: sim.env(), close: () => sim.close() };
}

/** The simulator in its own process (bench/upstream-process.ts), every host in `delays` answering after that many ms. */
export function upstreamProcess(delays: Record<string, number>): Promise<Upstreams> {
  const script = fileURLToPath(new URL('./upstream-process.js', import.meta.url));
  const child = spawn(process.execPath, [script, JSON.stringify(delays)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', (line: Buffer) =>
      resolve({ env: JSON.parse(line.toString()) as Record<string, string>, close: () => (child.stdin.end(), exited) }),
    );
  });
}

/** Headers a server writes per connection or per body: the bare reference sets its own. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** An answer's headers without the transport ones: what a bare route must set to send the same response. */
export const fixedHeaders = (headers: Headers): Record<string, string> =>
  Object.fromEntries([...headers].filter(([name]) => !TRANSPORT_HEADERS.has(name)));

/** The bytes-sending bare route (bench/bare-process.ts) in its own process, answering `body` with `headers`. */
export function bareProcess(body: Buffer, headers: Headers): Promise<{ url: string; pid: number; close: () => Promise<void> }> {
  const spec = JSON.stringify({ body: body.toString('base64'), headers: fixedHeaders(headers) });
  const script = fileURLToPath(new URL('./bare-process.js', import.meta.url));
  const child = spawn(process.execPath, ['--max-semi-space-size=8', script, spec], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', (line: Buffer) =>
      resolve({ url: `http://127.0.0.1:${line.toString().trim()}/bare`, pid: child.pid!, close: () => (child.stdin.end(), exited) }),
    );
  });
}

/**
 * The real app on loopback, scheduler off, limits out of the way; every upstream is the simulator,
 * in this process unless `upstreams` runs elsewhere (then `sim` is undefined).
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { pgSchema?: string; upstreams?: Upstreams; registry?: Registry } = {},
) {
  const local = options.upstreams ? undefined : await inProcessUpstreams();
  const upstreams = options.upstreams ?? local!;
  const config = loadConfig({
    SVC_DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')),
    SVC_SCHEDULER: '0',
    SVC_RATE_ANON_PER_MIN: '100000000',
    LOG_LEVEL: 'silent',
    ...upstreams.env,
    ...env,
  });
  const deps = await createDeps(config, { pgSchema: options.pgSchema, registry: options.registry });
  const app = await buildApp(deps);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    sim: local?.sim,
    deps,
    app,
    close: async () => {
      await app.close();
      await deps.close();
      await upstreams.close();
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
