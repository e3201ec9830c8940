import type { FastifyInstance } from 'fastify';

/** Request headers a browser agent may send: x402 clients send X-Payment / PAYMENT-SIGNATURE, MCP clients the MCP headers. */
const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-api-key',
  'x-payment',
  'payment-signature',
  'x-svc-pass',
  'idempotency-key',
  'access-control-expose-headers',
  'last-event-id',
  'x-request-id',
  'mcp-protocol-version',
  'mcp-session-id',
].join(', ');

/** Response headers a browser agent may read: the payment answers, passes, limits, the request id and the MCP headers. */
const EXPOSED_HEADERS = [
  'x-payment-response',
  'payment-response',
  'x-payment-required',
  'payment-required',
  'www-authenticate',
  'x-payment-status',
  'x-svc-pass',
  'x-svc-pass-expires',
  'ratelimit-policy',
  'ratelimit',
  'retry-after',
  'x-request-id',
  'mcp-protocol-version',
  'mcp-session-id',
].join(', ');

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * CORS for browser agents: any origin may call, with no credentials (cookies are never used), and read
 * the headers above. A request without `Origin` is not a CORS request and gets only `Vary: Origin`; a
 * preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered 204 before routing.
 * One hook with constant header values: the plugin it replaces built its options per request.
 */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return done();
    reply
      .code(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .header('content-length', '0')
      .send();
  });
}
