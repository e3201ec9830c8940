/**
 * The server's resident memory under the cached-preview load test, measured on the service alone:
 * `npm start`'s compiled build in its own process, upstreams simulated in another, load from a third.
 * Figures: RSS idle after start-up, then after serving one preview of each kind below, then its peak
 * (VmHWM) and final RSS under 50 connections of cached previews. Target < 200 MB.
 */
import { upstreamProcess, runExternal, DURATION_S } from './lib.js';
import { rssMb, startServerProcess } from './server-process.js';

const CONNECTIONS = 50;
const PREVIEWS = ['crypto-price&q=bitcoin,ethereum', 'weather&q=40.71,-74.01', 'news-hn-top&q=ai', 'forex&q=EUR/USD'];

export async function serverRss() {
  const upstreams = await upstreamProcess({});
  const server = await startServerProcess(upstreams.env);
  try {
    const idleMb = rssMb(server.pid);
    for (const preview of PREVIEWS) await fetch(`${server.base}/api/data/preview?type=${preview}`).then((r) => r.text());
    const servedMb = rssMb(server.pid);
    const url = `${server.base}/api/data/preview?type=${PREVIEWS[0]}`;
    const load = await runExternal(url, CONNECTIONS, DURATION_S * 3);
    return {
      connections: CONNECTIONS,
      requests: load.requests.total,
      non_2xx: load.non2xx,
      rss_mb: {
        idle: Math.round(idleMb),
        after_first_previews: Math.round(servedMb),
        peak: Math.round(rssMb(server.pid, 'VmHWM')),
        after_load: Math.round(rssMb(server.pid)),
      },
      target_rss_mb: 200,
    };
  } finally {
    server.child.kill('SIGTERM');
    await upstreams.close();
  }
}
