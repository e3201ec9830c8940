import type { Config } from '../config.js';
import { DIRECT } from './hosts.js';
import { checkPort, portOf, safeFetch, type FetchedPage } from './safe-fetch.js';

export interface WebFetchOptions {
  deadline: number;
  maxBytes: number;
  maxRedirects: number;
  accept: readonly string[];
}

/**
 * Fetches a URL an agent named, SSRF-guarded (safe-fetch.ts): only public addresses on
 * SVC_FETCH_ALLOWED_PORTS, every redirect re-checked. When UPSTREAM_WEB_URL is set (the simulator in
 * tests and the demo), the path is fetched from that server instead, and only its address and port are
 * let through besides. The page's `url` is the one asked for unless a redirect moved it.
 */
export async function webFetch(url: string, config: Config, o: WebFetchOptions): Promise<FetchedPage> {
  const base = config.upstreams.web.baseUrl;
  const asked = new URL(url);
  const target = base === DIRECT ? url : `${base}${asked.pathname}${asked.search}`;
  const simulator = base === DIRECT ? undefined : new URL(base);
  checkPort(asked, config.fetchAllowedPorts);
  const page = await safeFetch(target, {
    ...o,
    userAgent: config.userAgent,
    ports: simulator ? [...config.fetchAllowedPorts, portOf(simulator)] : config.fetchAllowedPorts,
    allowAddress: simulator ? (address) => address === simulator.hostname : undefined,
  });
  return { ...page, url: page.url === target ? url : page.url };
}
