import type { FastifyInstance } from 'fastify';

/**
 * How MCP tools reach the service: the same HTTP routes, in-process (`app.inject`) or over the
 * network, so every rule (validation, rate limits, payments, receipts) applies to tool calls too.
 */
export interface ServiceRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ServiceAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Caller = (request: ServiceRequest) => Promise<ServiceAnswer>;

const withQuery = (path: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
};

const parse = (text: string, type: string | undefined) => {
  if (!type?.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const flatHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) =>
      v === undefined ? [] : [[k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v as string | number)]],
    ),
  );

const jsonHeaders = (request: ServiceRequest) => ({
  ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
  ...request.headers,
});

export function injectCaller(app: FastifyInstance): Caller {
  return async (request) => {
    // In process, the end client's address is the socket address of the inner request (no proxy header to trust).
    const { 'x-forwarded-for': clientIp, ...headers } = jsonHeaders(request) as Record<string, string>;
    const res = await app.inject({
      method: request.method as 'GET',
      url: withQuery(request.path, request.query),
      headers,
      ...(clientIp ? { remoteAddress: clientIp } : {}),
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return {
      status: res.statusCode,
      headers: flatHeaders(res.headers),
      body: parse(res.body, res.headers['content-type'] as string | undefined),
    };
  };
}

export function httpCaller(baseUrl: string, timeoutMs = 30_000): Caller {
  return async (request) => {
    const res = await fetch(`${baseUrl}${withQuery(request.path, request.query)}`, {
      method: request.method,
      headers: jsonHeaders(request),
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers = Object.fromEntries(res.headers.entries());
    return { status: res.status, headers, body: parse(await res.text(), headers['content-type']) };
  };
}
