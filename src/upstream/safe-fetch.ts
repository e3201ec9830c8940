import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type * as Undici from 'undici';
import { importOnce } from '../core/import-once.js';
import { UpstreamError } from './errors.js';
import { discard, readCapped } from './body.js';
import { addressRefusal, ipLiteral, isMetadataHost } from './address-policy.js';

/** undici (~5 MB of heap with the fetch internals it pulls in) loads with the first fetch, not at start-up. */
const loadUndici = importOnce(() => import('undici'));

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export interface SafeFetchOptions {
  deadline: number;
  maxBytes: number;
  maxRedirects: number;
  accept: readonly string[];
  userAgent: string;
  /** Ports a URL may name, each redirect target's too (SVC_FETCH_ALLOWED_PORTS; default 80 and 443). */
  ports: readonly number[];
  resolver?: Resolver;
  /** Addresses allowed although not public: only the simulator's, when tests or the demo configure it. */
  allowAddress?: (address: string) => boolean;
}

export interface FetchedPage {
  url: string;
  contentType: string;
  body: string;
  /** The final response's headers, lower-cased names (AgentShield reads rate-limit headers). */
  headers: Record<string, string>;
}

/** Why an address may not be fetched (undefined: it may). */
type Refusal = (address: string) => string | undefined;

const blocked = (what: string, why: string) => new UpstreamError('blocked_address', `refused to fetch ${what}: ${why}`);

/**
 * An agent whose DNS lookup is the check: every connection (first hop and each redirect) goes to an
 * address vetted in this very lookup, so the connection is pinned to what was checked and a second
 * DNS answer cannot rebind it. IP literals never reach a lookup; checkUrl vets them.
 */
function guardedAgent(undici: typeof Undici, resolver: Resolver, refuse: Refusal): Undici.Agent {
  return new undici.Agent({
    connect: {
      // Node asks for every address (`all`) when it races IPv4 and IPv6; answer in the shape it asked for.
      lookup: (hostname, options, callback) => {
        const answer = callback;
        if (isMetadataHost(hostname)) return answer(blocked(hostname, 'a cloud metadata host'), '', 4);
        resolver(hostname).then(
          (addresses) => {
            if (!addresses.length) return answer(blocked(hostname, 'no address'), '', 4);
            for (const { address } of addresses) {
              const why = refuse(address);
              if (why) return answer(blocked(`${hostname} (${address})`, why), '', 4);
            }
            if ((options as { all?: boolean }).all) answer(null, addresses);
            else answer(null, addresses[0]!.address, addresses[0]!.family);
          },
          (err: Error) => answer(err, '', 4),
        );
      },
    },
  });
}

/** The port a URL connects to: the one it names, else its scheme's default. */
export const portOf = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** The URL's port must be one of `ports`. */
export function checkPort(url: URL, ports: readonly number[]): void {
  const port = portOf(url);
  if (!ports.includes(port)) throw blocked(url.host, `port ${port} is not allowed (allowed: ${ports.join(', ')}; SVC_FETCH_ALLOWED_PORTS)`);
}

/**
 * Scheme, credentials, IP literals and (when `ports` is given) the port, checked before any
 * connection, for each redirect target too.
 */
export function checkUrl(raw: string, rules: { refuse?: Refusal; ports?: readonly number[] } = {}): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamError('blocked_address', `refused scheme ${url.protocol}`);
  if (url.username || url.password) throw new UpstreamError('blocked_address', 'refused URL with credentials');
  if (isMetadataHost(url.hostname)) throw blocked(url.hostname, 'a cloud metadata host');
  const literal = ipLiteral(url.hostname);
  const why = literal && (rules.refuse ?? addressRefusal)(literal);
  if (why) throw blocked(url.hostname, why);
  if (rules.ports) checkPort(url, rules.ports);
  return url;
}

/** Any failure of a fetch as the reason an `ok:false` result gives; a deadline passed while the body dripped is a timeout. */
function asUpstreamError(e: unknown, undiciErrors: typeof Undici.errors): UpstreamError {
  if (e instanceof UpstreamError) return e;
  const cause = (e as { cause?: unknown }).cause;
  if (cause instanceof UpstreamError) return cause;
  const name = (e as Error).name;
  if (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    e instanceof undiciErrors.BodyTimeoutError ||
    e instanceof undiciErrors.HeadersTimeoutError
  ) {
    return new UpstreamError('upstream_timeout', 'the page did not load in time');
  }
  return new UpstreamError('upstream_error', `could not fetch the page (${(e as Error).message})`);
}

/** GET with the SSRF guard, manual redirects (each re-checked), a deadline, a byte cap and a content-type allow-list. */
export async function safeFetch(target: string, o: SafeFetchOptions): Promise<FetchedPage> {
  const refuse: Refusal = (address) => (o.allowAddress?.(address) ? undefined : addressRefusal(address));
  const rules = { refuse, ports: o.ports };
  const undici = await loadUndici();
  const agent = guardedAgent(undici, o.resolver ?? systemResolver, refuse);
  try {
    let url = checkUrl(target, rules);
    for (let hop = 0; ; hop++) {
      const timeLeft = Math.floor(o.deadline - Date.now());
      if (timeLeft <= 0) throw new UpstreamError('upstream_timeout', 'the page did not load in time');
      const res = await undici.request(url, {
        dispatcher: agent,
        signal: AbortSignal.timeout(timeLeft),
        headers: { 'user-agent': o.userAgent, accept: o.accept.join(', ') },
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        discard(res.body);
        if (hop >= o.maxRedirects) throw new UpstreamError('too_many_redirects', `more than ${o.maxRedirects} redirects`);
        url = checkUrl(new URL(location, url).href, rules);
        continue;
      }
      if (res.statusCode >= 400) {
        discard(res.body);
        throw new UpstreamError(
          res.statusCode === 429 ? 'upstream_rate_limited' : 'upstream_error',
          `the page answered HTTP ${res.statusCode}`,
          { status: res.statusCode },
        );
      }
      const contentType = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!o.accept.includes(contentType)) {
        discard(res.body);
        throw new UpstreamError(
          'unsupported_content_type',
          `refused content type "${contentType || 'none'}"; accepted: ${o.accept.join(', ')}`,
        );
      }
      const headers = Object.fromEntries(
        Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')]),
      );
      return {
        url: url.href,
        contentType,
        headers,
        body: await readCapped(
          res.body,
          o.maxBytes,
          () => new UpstreamError('upstream_bad_response', `the page is larger than ${o.maxBytes} bytes`),
          headers['content-type'],
        ),
      };
    }
  } catch (e) {
    throw asUpstreamError(e, undici.errors);
  } finally {
    void agent.close();
  }
}

/**
 * POST with the same SSRF guard (every address the lookup returns is vetted, IP literals and ports
 * checked first). Redirects are not followed: a 3xx is the receiver's answer. Returns the status.
 */
export async function safePost(
  target: string,
  body: string,
  headers: Record<string, string>,
  o: Pick<SafeFetchOptions, 'deadline' | 'ports' | 'userAgent' | 'resolver' | 'allowAddress'>,
): Promise<number> {
  const refuse: Refusal = (address) => (o.allowAddress?.(address) ? undefined : addressRefusal(address));
  const undici = await loadUndici();
  const agent = guardedAgent(undici, o.resolver ?? systemResolver, refuse);
  try {
    const url = checkUrl(target, { refuse, ports: o.ports });
    const timeLeft = Math.floor(o.deadline - Date.now());
    if (timeLeft <= 0) throw new UpstreamError('upstream_timeout', 'the receiver did not answer in time');
    const res = await undici.request(url, {
      method: 'POST',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeLeft),
      headers: { ...headers, 'user-agent': o.userAgent },
      body,
    });
    discard(res.body);
    return res.statusCode;
  } catch (e) {
    throw asUpstreamError(e, undici.errors);
  } finally {
    void agent.close();
  }
}
