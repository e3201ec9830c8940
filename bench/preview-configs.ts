/**
 * The cached preview as users run it: the compiled service in its own process with upstreams in another
 * (bench/upstream-process.ts), in three configurations, each against the bytes-sending bare route
 * (bench/bare-process.ts) measured in the same rounds:
 *   lean     scheduler off, logs silent (the configuration of `preview_vs_bare`);
 *   default  the configuration as shipped: scheduler and stream poller on, info-level JSON logs down a pipe;
 *   demo     SVC_DEMO=1 as shipped (the simulator and the demo world in the server's process).
 * Only the anonymous rate limit is raised (the limit and its headers still apply to every answer). Three rounds,
 * each running every server once in turn; per configuration the round with the median ratio is reported, with every
 * round's ratio, and each server's CPU per request from /proc (not inflated by other processes).
 */
import { DURATION_S, bareProcess, round, runExternal, summary, upstreamProcess } from './lib.js';
import { cpuMs, settled, startServerProcess } from './server-process.js';

const CONNECTIONS = 50;
const ROUNDS = 3;
const WARM_UP_S = 3;
const PREVIEW = '/api/data/preview?type=crypto-price&q=bitcoin,ethereum';

/** A run against `url` with the CPU the process `pid` spent serving it, in µs per request. */
async function measuredRun(url: string, pid: number) {
  const before = cpuMs(pid);
  const result = await runExternal(url, CONNECTIONS, DURATION_S);
  const after = cpuMs(pid);
  const cpuUs = ((after.user - before.user + after.system - before.system) * 1000) / Math.max(1, result.requests.total);
  return { result, cpuUs };
}

type Run = Awaited<ReturnType<typeof measuredRun>>;

const medianRound = (rounds: { run: Run; bare: Run; ratio: number }[]) =>
  [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;

export async function previewConfigs() {
  const upstreams = await upstreamProcess({});
  const servers = {
    lean: await startServerProcess(upstreams.env),
    default: await startServerProcess(upstreams.env, { asShipped: true }),
    demo: await startServerProcess({ SVC_DEMO: '1' }, { asShipped: true }),
  };
  let bare: Awaited<ReturnType<typeof bareProcess>> | undefined;
  try {
    const urls = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, `${server.base}${PREVIEW}`]));
    for (const url of Object.values(urls)) await fetch(url).then((r) => r.arrayBuffer()); // cold: upstream, then kept
    // Steady state: the scheduler's first run of every job (at start) is over before any load run.
    const settledAfterS: Record<string, number> = {};
    for (const [name, server] of Object.entries(servers)) settledAfterS[name] = round(await settled(server.pid), 1);
    const kept = await fetch(urls.default!);
    bare = await bareProcess(Buffer.from(await kept.arrayBuffer()), kept.headers);
    for (const url of [...Object.values(urls), bare.url]) await runExternal(url, CONNECTIONS, WARM_UP_S);
    const rounds: Record<string, { run: Run; bare: Run; ratio: number }[]> = { lean: [], default: [], demo: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, server] of Object.entries(servers)) {
        const run = await measuredRun(urls[name]!, server.pid);
        const reference = await measuredRun(bare.url, bare.pid);
        rounds[name]!.push({ run, bare: reference, ratio: run.result.requests.average / reference.result.requests.average });
      }
    }
    return {
      connections: CONNECTIONS,
      target_ratio: 0.7,
      settled_after_s: settledAfterS,
      ...Object.fromEntries(
        Object.entries(rounds).map(([name, runs]) => {
          const { run, bare: reference, ratio } = medianRound(runs);
          return [
            name,
            {
              ratio: round(ratio),
              ratio_of_each_round: runs.map((r) => round(r.ratio)),
              preview: summary(run.result),
              bare: summary(reference.result),
              cpu_us_per_request: { preview: round(run.cpuUs, 1), bare: round(reference.cpuUs, 1) },
              cpu_ratio_bare_vs_preview: round(reference.cpuUs / run.cpuUs),
            },
          ];
        }),
      ),
    };
  } finally {
    await bare?.close();
    for (const server of Object.values(servers)) server.child.kill('SIGTERM');
    await upstreams.close();
  }
}
