import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** A client's X-Request-Id is kept when it is safe to echo and log; otherwise svc makes one. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Query parameters whose values are secrets (the cron key, tokens) never reach a log line. */
const SECRET_PARAM = /([?&](?:key|token|secret|password|[a-z_]*_(?:key|token))=)[^&]*/gi;
/** What every SECRET_PARAM match contains: a URL without it (most) skips the replace, ~1 µs of each request line. */
const MAYBE_SECRET = /(?:key|token|secret|password)=/i;
export const redactUrl = (url: string) => (MAYBE_SECRET.test(url) ? url.replace(SECRET_PARAM, '$1[redacted]') : url);

/** What a log line says of a request (pino's `req` serializer): method, URL with secrets redacted, client address. */
export const requestSummary = (request: { method: string; url: string; ip?: string }) => ({
  method: request.method,
  url: redactUrl(request.url),
  remoteAddress: request.ip,
});

export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-payment"]', 'req.headers["payment-signature"]', 'req.headers["x-api-key"]'],
      censor: '[redacted]',
    },
    serializers: { req: requestSummary },
  };
}

/** Errors Node's HTTP parser raises before Fastify sees a request (431, 408, 400), in the house error body. */
const PARSER_ERRORS: Record<string, { status: number; error: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, error: 'header_too_large', message: 'the request line or headers exceed the allowed size' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'request_timeout', message: 'the request was not received in time' },
};

function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = PARSER_ERRORS[error.code ?? ''] ?? {
    status: 400,
    error: 'bad_request',
    message: 'the request could not be parsed as HTTP',
  };
  const requestId = randomUUID();
  const body = JSON.stringify({ error: known.error, message: known.message, request_id: requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Network-facing server settings: who the client is, how long it may take, how many may connect. */
export function serverOptions(config: Config): FastifyHttpOptions<Server> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.server;
  return {
    // A hop count n trusts the n addresses nearest to the socket (proxy-addr counts hops from the socket).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    genReqId: requestIdOf,
    clientErrorHandler,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Shutdown stops routing before it stops listening (the preClose and onClose hooks run in between): a
    // request that reaches the instance then is served, with Connection: close, rather than refused with a
    // 503 that a proxy cannot resend when it is a POST. In-flight work is bounded by SVC_SHUTDOWN_TIMEOUT_MS.
    return503OnClosing: false,
    requestTimeout: requestTimeoutMs,
    // Node checks header/request timeouts on this interval (30 s by default): a slowloris client would outlive headersTimeout.
    http: { headersTimeout: headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, headersTimeoutMs / 2) },
  };
}

export function registerServerLimits(app: FastifyInstance, config: Config): void {
  app.server.maxConnections = config.server.maxConnections;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
