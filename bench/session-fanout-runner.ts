/**
 * The fan-out comparison: bench/session-fanout.ts with 10,000 watchers against nginx + nchan (when
 * installed), a bare node:http broadcaster (the Node floor), svc in one process and svc with
 * SVC_WORKERS=2 (when REDIS_URL is set), one after the other, each with the same client in a
 * process of its own, in three alternating rounds. svc's figures are also given as ratios to
 * nchan's (≤ 1 meets the target): p99 latency, the first event's p99, CPU per delivery, RSS; and
 * its RSS above the Node floor's.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nchanMissing } from './nchan-process.js';
import { round } from './lib.js';

const WATCHERS = 10_000;
const EVENTS = 10;
const ROUNDS = 3;

interface FanoutRun {
  delivery_latency_ms: { p99: number };
  first_event_latency_ms: { p99: number };
  server_cpu_us_per_delivery: { total: number };
  server_rss_mb: { idle: number; with_watchers: number; per_watcher_kb: number };
}

function runTarget(target: string): Promise<FanoutRun> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL('./session-fanout.js', import.meta.url));
    const child = spawn(process.execPath, [script, target, String(WATCHERS), String(EVENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as FanoutRun) : reject(new Error(`session-fanout ${target} exited with ${code}`)),
    );
  });
}

const versus = (svc: FanoutRun, nchan: FanoutRun) => ({
  p99: round(svc.delivery_latency_ms.p99 / nchan.delivery_latency_ms.p99),
  first_event_p99: round(svc.first_event_latency_ms.p99 / nchan.first_event_latency_ms.p99),
  cpu_per_delivery: round(svc.server_cpu_us_per_delivery.total / nchan.server_cpu_us_per_delivery.total),
  rss: round(svc.server_rss_mb.with_watchers / nchan.server_rss_mb.with_watchers),
});

interface Round {
  nchan: FanoutRun | undefined;
  node: FanoutRun;
  svc: FanoutRun;
}

/** One round: the same client against each target, one after the other. */
async function runRound(withNchan: boolean): Promise<Round> {
  return { nchan: withNchan ? await runTarget('nchan') : undefined, node: await runTarget('node'), svc: await runTarget('svc') };
}

/**
 * The first event decides a run's p99, and one run's p99 moves by a fifth from run to run here, so
 * the targets are measured in ROUNDS alternating rounds and the round with the median p99 ratio
 * (svc against nchan, else against the Node floor) is reported, with every round's ratio.
 */
export async function sessionFanout(): Promise<Record<string, unknown>> {
  const missing = nchanMissing();
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await runRound(!missing));
  const p99Ratio = (r: Round) => r.svc.delivery_latency_ms.p99 / (r.nchan ?? r.node).delivery_latency_ms.p99;
  const { nchan, node, svc } = [...rounds].sort((a, b) => p99Ratio(a) - p99Ratio(b))[Math.floor(ROUNDS / 2)]!;
  const svc2 = process.env.REDIS_URL ? await runTarget('svc2') : undefined;
  return {
    nchan: nchan ?? { skipped: missing },
    node_http_floor: node,
    svc,
    p99_ratio_of_each_round: rounds.map((r) => round(p99Ratio(r))),
    // Where svc's memory goes: the process before any watcher, and what each watcher adds, against bare node:http's.
    svc_rss_above_node_floor_mb: {
      idle: svc.server_rss_mb.idle - node.server_rss_mb.idle,
      per_10k_watchers: Math.round(((svc.server_rss_mb.per_watcher_kb - node.server_rss_mb.per_watcher_kb) * WATCHERS) / 1024),
    },
    svc_2_workers: svc2 ?? { skipped: 'set REDIS_URL: more than one worker needs the Redis bus' },
    // Against one process (the median round's run): does a second worker pay for itself on this machine?
    ...(svc2 ? { svc_2_workers_vs_one_process: versus(svc2, svc) } : {}),
    ...(nchan
      ? {
          svc_vs_nchan: versus(svc, nchan),
          ...(svc2 ? { svc_2_workers_vs_nchan: versus(svc2, nchan) } : {}),
          target: '≤ 1 (p99 and CPU per delivery), RSS < 200 MB',
        }
      : {}),
  };
}
