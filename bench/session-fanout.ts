/**
 * Session fan-out: one publisher, N watchers of one channel, on one server in its own process.
 *
 *   npm run build && node dist/bench/session-fanout.js <svc|svc2|nchan|node> [watchers=1000] [events=20]
 *
 * Targets: `svc` (one process, SQLite, in-process bus), `svc2` (SVC_WORKERS=2 on one port, the Redis
 * bus of REDIS_URL), `nchan` (nginx + nchan, bench/nchan-process.ts) and `node` (a bare node:http
 * broadcaster, bench/node-broadcaster-process.ts: the Node floor), all driven by this same
 * client: raw sockets, a watcher is ready once its response headers arrived, and a delivery is
 * counted when a `data:` line carrying `"seq":N` arrives (svc's messages carry their seq; nchan's
 * publisher is sent `{"seq":N}`). For each event the clock starts just before the publish is sent
 * and stops when a watcher reads it, so a latency includes storing the event. Events go one after
 * another, each once every watcher has the previous one (or after 10 s). Prints JSON: delivery
 * latency p50/p99/max (overall and of the first event, the slowest of a run), the server's CPU time
 * (utime + stime from /proc, every process of the server) per event and per delivery, and its RSS
 * (all processes) before and with the watchers connected.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startNchan } from './nchan-process.js';
import { loadAverage, percentile } from './lib.js';
import { cpuMs, freePort, processTree, rssMb, sleep, startServerProcess } from './server-process.js';

const TARGET = process.argv[2] ?? 'svc';
const WATCHERS = Number(process.argv[3] ?? 1000);
const EVENTS = Number(process.argv[4] ?? 20);
const CONNECT_BATCH = 250;

/** A server under test: where watchers connect, how an event is published, and how it stops. */
interface Target {
  pid: number;
  port: number;
  watchPath: string;
  publish: (seq: number) => Promise<void>;
  stop: () => void;
}

async function svcTarget(workers: number): Promise<Target> {
  const redis: Record<string, string> =
    workers > 1 ? { REDIS_URL: process.env.REDIS_URL!, SVC_REDIS_PREFIX: `fanout_${Date.now().toString(36)}:` } : {};
  const { child, base } = await startServerProcess({
    SVC_SESSION_WATCHERS_PER_IP: String(WATCHERS + 10),
    SVC_SESSION_WATCHERS_PER_SESSION: String(WATCHERS + 10),
    SVC_WORKERS: String(workers),
    ...redis,
  });
  const started = await fetch(`${base}/api/agent-session/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'fan-out bench' }),
  });
  const session = (await started.json()) as { session_id: string; session_token: string };
  return {
    pid: child.pid!,
    port: Number(new URL(base).port),
    watchPath: `/api/agent-session/stream?session_id=${session.session_id}`,
    publish: async (seq) => {
      const res = await fetch(`${base}/api/agent-session/event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
        body: JSON.stringify({ session_id: session.session_id, kind: 'click', text: `event ${seq}` }),
      });
      if (!res.ok) throw new Error(`post ${seq}: ${res.status} ${await res.text()}`);
    },
    stop: () => child.kill('SIGTERM'),
  };
}

async function nchanTarget(): Promise<Target> {
  const port = await freePort();
  const { child, base } = await startNchan(port);
  return {
    pid: child.pid!,
    port,
    watchPath: '/sub?id=bench',
    publish: async (seq) => {
      const res = await fetch(`${base}/pub?id=bench`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"seq":${seq}}`,
      });
      if (!res.ok) throw new Error(`publish ${seq}: ${res.status}`);
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/** The bare node:http broadcaster: the same client, publisher and measurements as the others. */
async function nodeTarget(): Promise<Target> {
  const port = await freePort();
  const script = fileURLToPath(new URL('./node-broadcaster-process.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const publish = async (seq: number) => {
    const res = await fetch(`${base}/pub`, { method: 'POST', body: `{"seq":${seq}}` });
    if (!res.ok) throw new Error(`publish ${seq}: ${res.status}`);
  };
  const answers = () =>
    publish(0).then(
      () => true,
      () => false,
    );
  for (let tries = 1; !(await answers()); tries++) {
    if (tries === 100) throw new Error('the node:http broadcaster did not start within 10 s');
    await sleep(100);
  }
  return { pid: child.pid!, port, watchPath: '/sub', publish, stop: () => child.kill('SIGTERM') };
}

const TARGETS: Record<string, () => Promise<Target>> = {
  svc: () => svcTarget(1),
  svc2: () => svcTarget(2),
  nchan: nchanTarget,
  node: nodeTarget,
};

/** A watcher: one socket, the highest seq seen, and when each seq arrived. Ready once the response headers are in. */
function watch(target: Target, arrivals: Map<number, number[]>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, '127.0.0.1', () => {
      socket.write(`GET ${target.watchPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    });
    let tail = '';
    let lastSeq = 0;
    let ready = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const now = performance.now();
      const text = tail + chunk;
      if (!ready && text.includes('\r\n\r\n')) {
        if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`watch: ${text.split('\r\n')[0]}`));
        ready = true;
        resolve(socket);
      }
      for (const match of text.matchAll(/"seq":(\d+)/g)) {
        const seq = Number(match[1]);
        if (seq <= lastSeq) continue;
        lastSeq = seq;
        arrivals.get(seq)?.push(now);
      }
      tail = text.slice(-16);
    });
    socket.on('error', reject);
    socket.on('close', () => ready || reject(new Error('stream closed before it started')));
  });
}

const cpuOf = (pids: number[]) =>
  pids.map(cpuMs).reduce((sum, cpu) => ({ user: sum.user + cpu.user, system: sum.system + cpu.system }), { user: 0, system: 0 });
const rssOf = (pids: number[]) => pids.reduce((sum, pid) => sum + rssMb(pid), 0);
const round = (ms: number) => Math.round(ms * 10) / 10;
const latencyOf = (sorted: number[]) => ({
  p50: round(percentile(sorted, 50)),
  p99: round(percentile(sorted, 99)),
  max: round(sorted.at(-1) ?? NaN),
});

async function main() {
  const start = TARGETS[TARGET];
  if (!start) throw new Error(`unknown target ${TARGET} (${Object.keys(TARGETS).join(', ')})`);
  const target = await start();
  try {
    const pids = processTree(target.pid);
    const rssIdle = rssOf(pids);
    const arrivals = new Map<number, number[]>();
    const sockets: Socket[] = [];
    const connectStart = performance.now();
    for (let i = 0; i < WATCHERS; i += CONNECT_BATCH) {
      const batch = Math.min(CONNECT_BATCH, WATCHERS - i);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => watch(target, arrivals)))));
    }
    const connectMs = performance.now() - connectStart;
    await sleep(500);
    const rssWatched = rssOf(pids);

    const latencies: number[] = [];
    const cpuBefore = cpuOf(pids);
    let complete = 0;
    let first: number[] = [];
    for (let seq = 1; seq <= EVENTS; seq++) {
      const seen: number[] = [];
      arrivals.set(seq, seen);
      const sent = performance.now();
      await target.publish(seq);
      for (let waited = 0; seen.length < WATCHERS && waited < 10_000; waited += 5) await sleep(5);
      if (seen.length === WATCHERS) complete += 1;
      const eventLatencies = seen.map((at) => at - sent);
      if (seq === 1) first = [...eventLatencies].sort((a, b) => a - b);
      latencies.push(...eventLatencies);
    }
    const cpuAfter = cpuOf(pids);
    const cpuPerEvent = { user: (cpuAfter.user - cpuBefore.user) / EVENTS, system: (cpuAfter.system - cpuBefore.system) / EVENTS };
    latencies.sort((a, b) => a - b);
    const usPerDelivery = (ms: number) => round((ms * 1000) / WATCHERS);
    console.log(
      JSON.stringify({
        target: TARGET,
        server_processes: pids.length,
        watchers: WATCHERS,
        events: EVENTS,
        frames_expected: WATCHERS * EVENTS,
        frames_received: latencies.length,
        events_seen_by_every_watcher: complete,
        connect_all_ms: Math.round(connectMs),
        delivery_latency_ms: latencyOf(latencies),
        first_event_latency_ms: latencyOf(first),
        server_cpu_ms_per_event: { user: Math.round(cpuPerEvent.user), system: Math.round(cpuPerEvent.system) },
        server_cpu_us_per_delivery: {
          user: usPerDelivery(cpuPerEvent.user),
          system: usPerDelivery(cpuPerEvent.system),
          total: usPerDelivery(cpuPerEvent.user + cpuPerEvent.system),
        },
        server_rss_mb: {
          idle: Math.round(rssIdle),
          with_watchers: Math.round(rssWatched),
          per_watcher_kb: Math.round(((rssWatched - rssIdle) * 1024) / WATCHERS),
        },
        load_average: loadAverage(),
      }),
    );
    for (const socket of sockets) socket.destroy();
  } finally {
    target.stop();
  }
}

await main();
