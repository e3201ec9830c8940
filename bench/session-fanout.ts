/**
 * Session fan-out: one poster, N watchers of one agent session on one instance.
 *
 *   npm run build && node dist/bench/session-fanout.js [watchers=1000] [events=20]
 *
 * The server runs in its own process (compiled, SQLite, in-process bus and cache, as `npm start` runs it);
 * the watchers are raw sockets in this process: a stream counts as open at its `: ok` comment, and
 * each frame is counted by the `"seq":N` of its data line. For each event the clock
 * starts just before the POST is sent and stops when a watcher reads its frame, so a latency
 * includes storing the event. Events are posted one after another, each once every watcher has
 * the previous one (or after 10 s). Prints JSON: delivery latency p50/p99/max, the server's CPU
 * time per event (robust to other load on the machine, unlike latency), server RSS before and with
 * the watchers connected, and how many frames arrived.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpuMs, rssMb, sleep, startServerProcess } from './server-process.js';

const WATCHERS = Number(process.argv[2] ?? 1000);
const EVENTS = Number(process.argv[3] ?? 20);
const CONNECT_BATCH = 250;

/** A watcher: one socket, the highest seq seen, and when each seq arrived. */
function watch(port: number, sessionId: string, arrivals: Map<number, number[]>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET /api/agent-session/stream?session_id=${sessionId} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    let tail = '';
    let lastSeq = 0;
    let ready = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const now = performance.now();
      const text = tail + chunk;
      if (!ready && text.includes(': ok\n\n')) {
        ready = true;
        resolve(socket);
      }
      for (const match of text.matchAll(/"seq":(\d+)[,}]/g)) {
        const seq = Number(match[1]);
        if (seq <= lastSeq) continue;
        lastSeq = seq;
        arrivals.get(seq)?.push(now);
      }
      tail = text.slice(-24);
    });
    socket.on('error', reject);
    socket.on('close', () => ready || reject(new Error('stream closed before it started')));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const { child, base } = await startServerProcess({
    SVC_SESSION_WATCHERS_PER_IP: String(WATCHERS + 10),
    SVC_SESSION_WATCHERS_PER_SESSION: String(WATCHERS + 10),
  });
  const port = Number(new URL(base).port);
  try {
    const rssIdle = rssMb(child.pid!);
    const session = (await (
      await fetch(`${base}/api/agent-session/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'fan-out bench' }),
      })
    ).json()) as {
      session_id: string;
      session_token: string;
    };
    const arrivals = new Map<number, number[]>();
    const sockets: Socket[] = [];
    const connectStart = performance.now();
    for (let i = 0; i < WATCHERS; i += CONNECT_BATCH) {
      const batch = Math.min(CONNECT_BATCH, WATCHERS - i);
      sockets.push(...(await Promise.all(Array.from({ length: batch }, () => watch(port, session.session_id, arrivals)))));
    }
    const connectMs = performance.now() - connectStart;
    await sleep(500);
    const rssWatched = rssMb(child.pid!);

    const latencies: number[] = [];
    const postMs: number[] = [];
    const cpuBefore = cpuMs(child.pid!);
    let complete = 0;
    for (let seq = 1; seq <= EVENTS; seq++) {
      const seen: number[] = [];
      arrivals.set(seq, seen);
      const sent = performance.now();
      const res = await fetch(`${base}/api/agent-session/event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` },
        body: JSON.stringify({ session_id: session.session_id, kind: 'click', text: `event ${seq}` }),
      });
      if (!res.ok) throw new Error(`post ${seq}: ${res.status} ${await res.text()}`);
      postMs.push(performance.now() - sent);
      for (let waited = 0; seen.length < WATCHERS && waited < 10_000; waited += 5) await sleep(5);
      if (seen.length === WATCHERS) complete += 1;
      latencies.push(...seen.map((at) => at - sent));
    }
    const cpuAfter = cpuMs(child.pid!);
    const cpuPerEvent = { user: (cpuAfter.user - cpuBefore.user) / EVENTS, system: (cpuAfter.system - cpuBefore.system) / EVENTS };
    const cpuTotal = cpuPerEvent.user + cpuPerEvent.system;
    latencies.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    console.log(
      JSON.stringify(
        {
          bench: 'session-fanout',
          watchers: WATCHERS,
          events: EVENTS,
          frames_expected: WATCHERS * EVENTS,
          frames_received: latencies.length,
          events_seen_by_every_watcher: complete,
          connect_all_ms: Math.round(connectMs),
          post_answer_ms_p50: round(postMs.sort((a, b) => a - b)[Math.floor(postMs.length / 2)]!),
          delivery_latency_ms: {
            p50: round(percentile(latencies, 50)),
            p99: round(percentile(latencies, 99)),
            max: round(latencies.at(-1) ?? NaN),
          },
          server_cpu_ms_per_event: { user: Math.round(cpuPerEvent.user), system: Math.round(cpuPerEvent.system) },
          server_cpu_us_per_delivery: Math.round((cpuTotal * 1000) / WATCHERS),
          load_average_1m: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
          server_rss_mb: {
            idle: Math.round(rssIdle),
            with_watchers: Math.round(rssWatched),
            per_watcher_kb: Math.round(((rssWatched - rssIdle) * 1024) / WATCHERS),
          },
          client_rss_mb: Math.round(process.memoryUsage().rss / 1048576),
        },
        null,
        2,
      ),
    );
    for (const socket of sockets) socket.destroy();
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
