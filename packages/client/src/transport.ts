import { SvcNetworkError, SvcTimeoutError } from './errors.js';
import { readMeta, type RequestDescription, type ResponseMeta } from './meta.js';

/**
 * The client's HTTP: one exchange per call under a timeout, network retries where sending twice is
 * harmless, Retry-After waited out on 429/503, and every answer read with its meta.
 */

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  /** JSON, or a FormData sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  /** A bearer token for this route (agent key, session token). */
  bearer?: string;
  /** A 402 may be paid (with the pass, else the wallet). */
  payable?: boolean;
  /** Send the pass on this payable route (default true; false when buying a pass). */
  pass?: boolean;
  /** A POST that changes nothing (bundle, verify): safe to send again after a network error. */
  readOnly?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
  meta: ResponseMeta;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  /** Attempts after a network error. */
  retries: number;
  timeoutMs: number;
  retryAfter: { maxRetries: number; maxWaitMs: number };
  /** Sent with every request (the API key); a route's own headers win. */
  headers: Record<string, string>;
}

/** Statuses whose `Retry-After` the client waits out and sends again. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Query values as sent: strings as they are, anything else as JSON (numbers, booleans). */
function queryStrings(query: Record<string, unknown> | undefined): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null) strings[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return strings;
}

/** The request as the service hashes it (a form upload is not described: its hash covers fields the SDK does not see). */
function describeRequest(spec: RequestSpec): RequestDescription | undefined {
  if (typeof FormData !== 'undefined' && spec.body instanceof FormData) return undefined;
  const body: unknown = spec.body === undefined ? null : JSON.parse(JSON.stringify(spec.body));
  return { method: spec.method, path: spec.path, query: queryStrings(spec.query), body };
}

export function createTransport({
  baseUrl,
  fetch: doFetch,
  retries,
  timeoutMs: defaultTimeoutMs,
  retryAfter,
  headers: always,
}: TransportOptions) {
  function url(path: string, query?: Record<string, unknown>): string {
    const qs = new URLSearchParams(queryStrings(query)).toString();
    return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  function requestInit(spec: RequestSpec, headers: Record<string, string>): RequestInit {
    const all: Record<string, string> = { accept: 'application/json', ...always, ...spec.headers, ...headers };
    if (spec.body === undefined) return { method: spec.method, headers: all };
    if (typeof FormData !== 'undefined' && spec.body instanceof FormData) return { method: spec.method, headers: all, body: spec.body };
    return { method: spec.method, headers: { ...all, 'content-type': 'application/json' }, body: JSON.stringify(spec.body) };
  }

  /** Milliseconds to wait before sending again, when the answer asks for it within the bounds. */
  function retryAfterWait(answer: Answer<unknown>, waitsSoFar: number): number | undefined {
    const { retryAfterS } = answer.meta;
    if (!RETRY_AFTER_STATUSES.has(answer.status) || retryAfterS === undefined || waitsSoFar >= retryAfter.maxRetries) return undefined;
    return retryAfterS * 1000 <= retryAfter.maxWaitMs ? retryAfterS * 1000 : undefined;
  }

  /**
   * One HTTP exchange (request and answer body) under the timeout. Sent again unchanged when the
   * network fails and sending twice is harmless: reads, and paid requests (the service answers a
   * repeated payment with its first answer). Other writes (claims, session events) are not repeated:
   * a lost response may have been applied. A 429/503 with Retry-After was not served: it is sent again.
   */
  async function exchange<T>(spec: RequestSpec, headers: Record<string, string>, paid = false): Promise<Answer<T>> {
    const attempts = spec.method === 'GET' || spec.readOnly || paid ? retries : 0;
    const init = requestInit(spec, headers);
    const description = describeRequest(spec);
    for (let attempt = 0, waits = 0; ;) {
      const timeoutMs = spec.timeoutMs ?? defaultTimeoutMs;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
      let answer: Answer<T>;
      try {
        answer = await read<T>(await doFetch(url(spec.path, spec.query), { ...init, signal }), description);
      } catch (error) {
        if (spec.signal?.aborted) throw error;
        if (timeout.aborted) throw new SvcTimeoutError(`${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`, { cause: error });
        if (attempt >= attempts) throw new SvcNetworkError(`${spec.method} ${spec.path}: ${(error as Error).message}`, { cause: error });
        await sleep(200 * 2 ** attempt++);
        continue;
      }
      const wait = retryAfterWait(answer, waits++);
      if (wait === undefined) return answer;
      await sleep(wait);
    }
  }

  async function read<T>(response: Response, request?: RequestDescription): Promise<Answer<T>> {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return {
      status: response.status,
      headers: response.headers,
      body: body as T,
      meta: readMeta(response.status, response.headers, request),
    };
  }

  return { url, exchange, read, commonHeaders: always };
}
