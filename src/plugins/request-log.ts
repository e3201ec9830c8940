import pino from 'pino';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from '../core/url-path.js';
import { requestSummary } from './server-options.js';

/** Probes a balancer or Prometheus sends every few seconds: logged only when asked for (SVC_LOG_HEALTH_PROBES). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const WRITES_INFO = new Set(['info', 'debug', 'trace']);

/** The parts of a pino logger a line is made of, read where pino itself reads them when it writes one. */
type PinoLogger = pino.Logger & {
  [pino.symbols.lsCacheSym]: Record<number, string>;
  [pino.symbols.timeSym]: () => string;
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.endSym]: string;
  [pino.symbols.streamSym]: { write(line: string): unknown };
};
const symbols = pino.symbols;

/**
 * The request line as `logger.info({ reqId, req, res, responseTime }, 'request completed')` writes it with
 * loggerOptions' serializers (test/core/request-line.test.ts compares the two on random requests), built as one
 * string: pino's general path (a serializer lookup and a type switch per field, the `res` serializer's object, each
 * field's JSON) was a quarter of the line's instructions, its write included (bench/README.md). The head (level,
 * time, pid, hostname) and the line's end are pino's own.
 * JSON.stringify quotes the id as pino would (they differ only on lone surrogates; an id is ASCII, requestIdOf).
 */
function lineOf(logger: PinoLogger, level: number, request: FastifyRequest, reply: FastifyReply): string {
  const head = logger[symbols.lsCacheSym][level]! + logger[symbols.timeSym]() + logger[symbols.chindingsSym];
  const elapsed = reply.elapsedTime;
  // pino writes a number that is not finite as null.
  const responseTime = Number.isFinite(elapsed) ? elapsed : null;
  return (
    `${head},"reqId":${JSON.stringify(request.id)},"req":${JSON.stringify(requestSummary(request))}` +
    `,"res":{"statusCode":${reply.statusCode}},"responseTime":${responseTime},"msg":"request completed"${logger[symbols.endSym]}`
  );
}

/** Writes the request line to `log`'s destination, as `log.info` would: only while info is enabled. */
export function requestLineWriter(log: FastifyBaseLogger): (request: FastifyRequest, reply: FastifyReply) => void {
  const logger = log as PinoLogger;
  const info = logger.levels.values.info!;
  return (request, reply) => {
    if (logger.isLevelEnabled('info')) logger[symbols.streamSym].write(lineOf(logger, info, request, reply));
  };
}

/**
 * One log line per request, written when it is answered, with what Fastify's two lines (`incoming
 * request`, `request completed`) said between them: method, URL (secrets redacted by the `req`
 * serializer), client address, status and time. Health probes stay out of the log unless `probes`.
 */
export function registerRequestLog(app: FastifyInstance, { probes }: { probes: boolean }): void {
  // No logger (silent), or one above info: the line would never be written, so no hook at all.
  if (!WRITES_INFO.has(app.log.level)) return;
  // The id is the line's first field, as in what request.log would write (its binding comes first too), without
  // making request.log's child (plugins/deferred-logger.ts).
  const writeLine = requestLineWriter(app.log);
  app.addHook('onResponse', (request, reply, done) => {
    if (probes || !PROBES.has(pathOf(request.url))) writeLine(request, reply);
    done();
  });
}
