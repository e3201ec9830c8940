/**
 * Where the cached preview's remaining microseconds go: the service and a bare Fastify route sending
 * the preview's very bytes and headers run in this one process, each under the same load while V8's
 * sampling profiler runs, and each function's sampled main-thread time is divided by the requests
 * served. The report lists the functions whose time per request differs most between the two
 * (positive: the preview spends more), with both totals. Sampled wall time on the main thread: a
 * system call's share includes the time the kernel takes for it (`writev` is the socket write).
 */
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { fixedHeaders, runExternal, round, startServer } from './lib.js';

const CONNECTIONS = 50;
const DURATION_S = 4;
const SAMPLING_US = 50;
const TOP = 20;

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  startTime: number;
  endTime: number;
}

/** Sampled µs per request of each function (self time), idle left out. */
function perRequest(profile: Profile, requests: number): Map<string, number> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const usPerSample = (profile.endTime - profile.startTime) / profile.samples.length;
  const spent = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') continue;
    const where = frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, '');
    const name = `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
    spent.set(name, (spent.get(name) ?? 0) + usPerSample / requests);
  }
  return spent;
}

async function profiled(session: Session, url: string): Promise<Map<string, number>> {
  await runExternal(url, CONNECTIONS, 2); // JIT-compiled before the measured run
  await session.post('Profiler.start');
  const result = await runExternal(url, CONNECTIONS, DURATION_S);
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  return perRequest(profile, result.requests.total);
}

const total = (spent: Map<string, number>) =>
  round(
    [...spent.values()].reduce((sum, us) => sum + us, 0),
    1,
  );

export async function previewProfile() {
  const svc = await startServer();
  const bare = Fastify();
  const session = new Session();
  try {
    const previewUrl = `${svc.url}/api/data/preview?type=crypto-price&q=bitcoin,ethereum`;
    await fetch(previewUrl);
    const kept = await fetch(previewUrl);
    const bytes = Buffer.from(await kept.arrayBuffer());
    const headers = fixedHeaders(kept.headers);
    bare.get('/bare', (_request, reply) => void reply.headers(headers).send(bytes));
    const bareUrl = `${await bare.listen({ port: 0, host: '127.0.0.1' })}/bare`;
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    const preview = await profiled(session, previewUrl);
    const reference = await profiled(session, bareUrl);
    const names = new Set([...preview.keys(), ...reference.keys()]);
    const differences = [...names]
      .map((name) => ({ name, us: round((preview.get(name) ?? 0) - (reference.get(name) ?? 0), 2) }))
      .sort((a, b) => Math.abs(b.us) - Math.abs(a.us))
      .slice(0, TOP);
    return {
      sampled_us_per_request: { preview: total(preview), bare_route_same_process: total(reference) },
      largest_differences_us_per_request: Object.fromEntries(differences.map(({ name, us }) => [name, us])),
    };
  } finally {
    session.disconnect();
    await bare.close();
    await svc.close();
  }
}
