import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { UpstreamError } from './errors.js';
import { discard, readCapped } from './body.js';
import { ipLiteral, isMetadataHost, isPublicAddress } from './address-policy.js';

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export interface SafeFetchOptions {
  deadline: number;
  maxBytes: number;
  maxRedirects: number;
  accept: readonly string[];
  userAgent: string;
  resolver?: Resolver;
  /** Addresses allowed although not public: only the simulator's, when tests or the demo configure it. */
  allowAddress?: (address: string) => boolean;
}

export interface FetchedPage {
  url: string;
  contentType: string;
  body: string;
}

const blocked = (what: string) => new UpstreamError('blocked_address', `refused to fetch ${what}: not a public address`);

/**
 * An agent whose DNS lookup is the check: every connection (first hop and each redirect) goes to
 * an address that was vetted in this very lookup, so a second DNS answer cannot rebind it.
 */
function guardedAgent(resolver: Resolver, allow: (address: string) => boolean): Agent {
  return new Agent({
    connect: {
      // Node asks for every address (`all`) when it races IPv4 and IPv6; answer in the shape it asked for.
      lookup: (hostname, options, callback) => {
        const answer = callback as (err: Error | null, address: string | LookupAddress[], family?: number) => void;
        if (isMetadataHost(hostname)) return answer(blocked(hostname), '', 4);
        resolver(hostname).then(
          (addresses) => {
            const bad = addresses.find((a) => !allow(a.address));
            if (!addresses.length || bad) return answer(blocked(`${hostname} (${bad?.address ?? 'no address'})`), '', 4);
            if ((options as { all?: boolean }).all) answer(null, addresses);
            else answer(null, addresses[0]!.address, addresses[0]!.family);
          },
          (err: Error) => answer(err, '', 4),
        );
      },
    },
  });
}

/** Scheme, credentials and IP literals, checked before any connection (each redirect target too). */
export function checkUrl(raw: string, allow: (address: string) => boolean = isPublicAddress): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamError('blocked_address', `refused scheme ${url.protocol}`);
  if (url.username || url.password) throw new UpstreamError('blocked_address', 'refused URL with credentials');
  const literal = ipLiteral(url.hostname);
  if ((literal && !allow(literal)) || isMetadataHost(url.hostname)) throw blocked(url.hostname);
  return url;
}

/** GET with the SSRF guard, manual redirects (each re-checked), a deadline, a byte cap and a content-type allow-list. */
export async function safeFetch(target: string, o: SafeFetchOptions): Promise<FetchedPage> {
  const allow = (address: string) => isPublicAddress(address) || (o.allowAddress?.(address) ?? false);
  const agent = guardedAgent(o.resolver ?? systemResolver, allow);
  try {
    let url = checkUrl(target, allow);
    for (let hop = 0; ; hop++) {
      const timeLeft = Math.floor(o.deadline - Date.now());
      if (timeLeft <= 0) throw new UpstreamError('upstream_timeout', 'the page did not load in time');
      const res = await request(url, { dispatcher: agent, signal: AbortSignal.timeout(timeLeft), headers: { 'user-agent': o.userAgent, accept: o.accept.join(', ') } }).catch((e: Error) => {
        if (e instanceof UpstreamError) throw e;
        const cause = (e as { cause?: unknown }).cause;
        if (cause instanceof UpstreamError) throw cause;
        if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new UpstreamError('upstream_timeout', 'the page did not load in time');
        throw new UpstreamError('upstream_error', `could not fetch the page (${e.message})`);
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        discard(res.body);
        if (hop >= o.maxRedirects) throw new UpstreamError('too_many_redirects', `more than ${o.maxRedirects} redirects`);
        url = checkUrl(new URL(location, url).href, allow);
        continue;
      }
      if (res.statusCode >= 400) {
        discard(res.body);
        throw new UpstreamError(res.statusCode === 429 ? 'upstream_rate_limited' : 'upstream_error', `the page answered HTTP ${res.statusCode}`);
      }
      const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!o.accept.includes(contentType)) {
        discard(res.body);
        throw new UpstreamError('unsupported_content_type', `refused content type "${contentType || 'none'}"; accepted: ${o.accept.join(', ')}`);
      }
      return { url: url.href, contentType, body: await readCapped(res.body, o.maxBytes, () => new UpstreamError('upstream_bad_response', `the page is larger than ${o.maxBytes} bytes`)) };
    }
  } finally {
    void agent.close();
  }
}
