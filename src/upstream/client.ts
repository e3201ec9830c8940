import { Agent, request, errors as undiciErrors } from 'undici';
import { ConsecutiveBreaker, BrokenCircuitError, CircuitState, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import { HOSTS, browserUserAgent, hostEnvName, type HostName, type HostSpec } from './hosts.js';
import { isRegionBlocked, UpstreamError } from './errors.js';
import { readCapped } from './body.js';
import type { CallOutcome, CallReport, CircuitState as HealthCircuit } from './health.js';
import { noTracer, type Tracer } from '../core/tracing.js';
import { fitToSchema, type SkipTally } from './validate.js';

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  query?: QueryParams;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Absolute deadline (epoch ms) shared by all attempts of this call. */
  deadline: number;
}

/** A client bound to one upstream host. Paths are relative to the host's base URL. */
export interface HostHttp {
  readonly name: HostName;
  json<T>(path: string, schema: TSchema, options: CallOptions): Promise<T>;
  text(path: string, options: CallOptions): Promise<string>;
}

export type { CallOutcome, CallReport } from './health.js';
/** Told of every call's outcome: metrics and upstream health listen here. */
export type CallObserver = (call: CallReport) => void;

export interface ClientOptions {
  observe?: CallObserver;
  /** Each call becomes a client span (a child of the request's span). */
  tracer?: Tracer;
}

const OUTCOME_OF: Partial<Record<string, CallOutcome>> = {
  upstream_timeout: 'timeout',
  upstream_rate_limited: 'rate_limited',
  upstream_bad_response: 'bad_response',
  upstream_unavailable: 'circuit_open',
  upstream_key_missing: 'key_missing',
};
const CIRCUIT_OF: Record<CircuitState, HealthCircuit> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 100;

/**
 * The host failed (unreachable, a 5xx, 408), as opposed to answering this request with a 4xx: an
 * unknown symbol's 404 is the upstream's answer, not a fault. Only host failures are retried and
 * counted by the breaker, so callers asking for things that do not exist cannot open a host's
 * circuit for everyone.
 */
const isHostFailure = (e: unknown): e is UpstreamError => {
  if (!(e instanceof UpstreamError)) return false;
  if (e.reason === 'upstream_timeout') return true;
  const status = e.info.status;
  return e.reason === 'upstream_error' && (status === undefined || status >= 500 || status === 408);
};
const isRetryable = (e: unknown): e is UpstreamError => isHostFailure(e) && e.reason === 'upstream_error';
const isTimeout = (e: unknown) => e instanceof UpstreamError && e.reason === 'upstream_timeout';

/**
 * Upstream HTTP with a deadline per call, bounded GET retries with jitter inside the deadline,
 * one circuit breaker per host and a body-size cap. Caching and single-flight sit one level up,
 * in the source runner, because they are per data type.
 */
export class UpstreamClient {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 256 });
  private breakers = new Map<HostName, CircuitBreakerPolicy>();
  private readonly observe: CallObserver;
  private readonly tracer: Tracer;

  constructor(
    private readonly config: Config,
    options: ClientOptions = {},
  ) {
    this.observe = options.observe ?? (() => {});
    this.tracer = options.tracer ?? noTracer;
  }

  /** `tally` counts the items of lenient lists dropped from this host's answers (see `LenientArray`). */
  host(name: HostName, tally?: SkipTally): HostHttp {
    return {
      name,
      json: <T>(path: string, schema: TSchema, options: CallOptions) =>
        this.call(name, path, options, (text) => parseJson<T>(name, text, schema, tally)),
      text: (path: string, options: CallOptions) => this.call(name, path, options, (text) => text),
    };
  }

  hasKey(name: HostName): boolean {
    return Boolean(this.config.upstreams[name]?.key);
  }

  circuitState(name: HostName): HealthCircuit {
    const breaker = this.breakers.get(name);
    return breaker ? CIRCUIT_OF[breaker.state] : 'closed';
  }

  /** Forget breaker state (tests run faults back to back against one app). */
  resetBreakers(): void {
    this.breakers.clear();
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private breaker(name: HostName): CircuitBreakerPolicy {
    let breaker = this.breakers.get(name);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen(isHostFailure), { halfOpenAfter: 15_000, breaker: new ConsecutiveBreaker(5) });
      this.breakers.set(name, breaker);
    }
    return breaker;
  }

  private async call<T>(name: HostName, path: string, options: CallOptions, parse: (text: string) => T): Promise<T> {
    const method = options.method ?? 'GET';
    const span = this.tracer.start(`${method} ${name}`, 'client', {
      'svc.upstream': name,
      'http.request.method': method,
      'url.path': path,
    });
    const started = performance.now();
    try {
      const parsed = await this.attempt(name, path, options, parse);
      this.observe({ host: name, outcome: 'ok', ms: performance.now() - started });
      return parsed;
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      const outcome = OUTCOME_OF[e.reason] ?? 'error';
      const sent = outcome !== 'key_missing' && outcome !== 'circuit_open';
      this.observe({ host: name, outcome, ms: sent ? performance.now() - started : 0, status: e.info.status, reason: e.reason });
      span.set({ 'svc.upstream.outcome': outcome, 'http.response.status_code': e.info.status });
      span.fail(e.reason);
      throw e;
    } finally {
      span.end();
    }
  }

  /** The request through the host's breaker, then the parse; every failure is an UpstreamError. */
  private async attempt<T>(name: HostName, path: string, options: CallOptions, parse: (text: string) => T): Promise<T> {
    const spec: HostSpec = HOSTS[name];
    if (spec.key?.required && !this.config.upstreams[name].key) {
      throw new UpstreamError('upstream_key_missing', `${name} needs a key: set ${hostEnvName(name, 'KEY')}`, { host: name });
    }
    try {
      const text = await this.breaker(name).execute(() => this.withRetries(name, spec, path, options));
      return parse(text);
    } catch (e) {
      if (e instanceof BrokenCircuitError) {
        throw new UpstreamError('upstream_unavailable', `${name} is failing; its circuit is open`, { host: name });
      }
      throw e;
    }
  }

  private async withRetries(name: HostName, spec: HostSpec, path: string, options: CallOptions): Promise<string> {
    const retries = (options.method ?? 'GET') === 'GET' ? MAX_ATTEMPTS : 1;
    let lastAnswer: UpstreamError | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(name, spec, path, options);
      } catch (e) {
        // A retry cut short by the deadline reports what the upstream last said (say, a 500), not a hang it never showed.
        if (lastAnswer && isTimeout(e)) throw lastAnswer;
        const backoff = RETRY_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random());
        const timeLeft = options.deadline - Date.now();
        if (attempt >= retries || !isRetryable(e) || timeLeft < backoff + 200) throw e;
        lastAnswer = e;
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
    }
  }

  private buildUrl(name: HostName, spec: HostSpec, path: string, query: QueryParams = {}): URL {
    const url = new URL(this.config.upstreams[name].baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const key = this.config.upstreams[name].key;
    if (key && spec.key?.in === 'query') url.searchParams.set(spec.key.name, key);
    return url;
  }

  private headers(name: HostName, spec: HostSpec, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', ...spec.headers, ...extra };
    if (spec.userAgent === 'identify') headers['user-agent'] = this.config.userAgent;
    else if (spec.userAgent === 'browser') headers['user-agent'] = browserUserAgent;
    else headers['user-agent'] ??= this.config.userAgent;
    const key = this.config.upstreams[name].key;
    if (key && spec.key?.in === 'header') {
      headers[spec.key.name] = spec.key.name.toLowerCase() === 'authorization' ? `${spec.key.scheme ?? 'Bearer'} ${key}` : key;
    }
    return headers;
  }

  private async once(name: HostName, spec: HostSpec, path: string, options: CallOptions): Promise<string> {
    // Deadlines are shares of a type's budget and need not be whole milliseconds; timers want an integer.
    const timeLeft = Math.floor(options.deadline - Date.now());
    if (timeLeft <= 0) throw new UpstreamError('upstream_timeout', `${name} did not answer in time`, { host: name });
    const { signal, clear } = deadlineSignal(timeLeft);
    try {
      const res = await request(this.buildUrl(name, spec, path, options.query), {
        method: options.method ?? 'GET',
        headers: this.headers(name, spec, options.headers),
        body: options.body,
        dispatcher: this.agent,
        signal,
      });
      const maxBytes = spec.maxBytes ?? DEFAULT_MAX_BYTES;
      const text = await readCapped(
        res.body,
        maxBytes,
        () => new UpstreamError('upstream_bad_response', `${name} sent more than ${maxBytes} bytes`, { host: name }),
        res.headers['content-type'] as string | undefined,
      );
      if (isRegionBlocked(res.statusCode, text)) {
        throw new UpstreamError('region_blocked', `${name} refuses requests from this server's region (HTTP ${res.statusCode})`, {
          host: name,
          status: res.statusCode,
        });
      }
      if (isRateLimited(res.statusCode, res.headers)) {
        throw new UpstreamError('upstream_rate_limited', `${name} is rate limiting us`, {
          host: name,
          status: res.statusCode,
          retryAfterS: retryAfterS(res.headers, Date.now()),
        });
      }
      if (res.statusCode >= 400) {
        throw new UpstreamError('upstream_error', `${name} answered HTTP ${res.statusCode}`, { host: name, status: res.statusCode });
      }
      return text;
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      if (signal.aborted || e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError) {
        throw new UpstreamError('upstream_timeout', `${name} did not answer in time`, { host: name });
      }
      throw new UpstreamError('upstream_error', `${name} could not be reached (${(e as Error).message})`, { host: name });
    } finally {
      clear();
    }
  }
}

/**
 * A signal aborted after `ms`, as AbortSignal.timeout's, with a timer cleared once the call is over: AbortSignal.timeout's
 * own fires at the deadline even when the answer came long before, and builds a DOMException nobody reads (about 2 % of
 * a bundle's CPU, one per upstream call).
 */
function deadlineSignal(ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function parseJson<T>(name: HostName, text: string, schema: TSchema, tally?: SkipTally): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UpstreamError('upstream_bad_response', `${name} answered with malformed JSON`, { host: name });
  }
  const fit = fitToSchema(schema, parsed);
  if (!fit) throw new UpstreamError('upstream_bad_response', `${name} answered in an unexpected shape`, { host: name });
  if (tally) tally.skipped += fit.skipped;
  return fit.value as T;
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

/** 429, or a 403 with an exhausted quota (GitHub and other `X-RateLimit-*` APIs answer so). */
const isRateLimited = (status: number, headers: ResponseHeaders): boolean =>
  status === 429 || (status === 403 && headers['x-ratelimit-remaining'] === '0');

/** `Retry-After` seconds, else the wait until `X-RateLimit-Reset` (Unix seconds). */
function retryAfterS(headers: ResponseHeaders, nowMs: number): number | undefined {
  const retryAfter = Number(headers['retry-after']);
  if (retryAfter > 0) return retryAfter;
  const reset = Number(headers['x-ratelimit-reset']);
  return reset > 0 ? Math.max(1, Math.ceil(reset - nowMs / 1000)) : undefined;
}
