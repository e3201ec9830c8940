import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Server-sent events as the interface describes them: every message is an `id:` line and one
 * `data:` line holding one JSON object, then a blank line. No `event:` names: a browser
 * EventSource hands unnamed messages to `onmessage`, and a message named `error` would land in
 * `onerror` instead.
 */
export const frameOf = (id: string | number, data: object): Buffer => Buffer.from(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);

/** A message without an id (state messages of a session stream): it does not move Last-Event-ID. */
export const idlessFrameOf = (data: object): Buffer => Buffer.from(`data: ${JSON.stringify(data)}\n\n`);

/** The first bytes of every stream: clients (and the benchmarks) take it as "the stream is open". */
const OPENED = Buffer.from(': ok\n\n');
export const HEARTBEAT = Buffer.from(': heartbeat\n\n');
/** Bytes a live client may have unsent before it counts as slow and is dropped (it resumes with Last-Event-ID). */
export const MAX_BUFFERED_BYTES = 256 * 1024;

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

/**
 * HEAD on a stream route answers the headers at once and holds no stream slot (Fastify routes a
 * HEAD to the GET handler, which would otherwise open a stream that never ends). True when answered.
 */
export function answeredHead(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'HEAD') return false;
  void reply.headers(SSE_HEADERS).code(200).send();
  return true;
}

/**
 * Takes the response over from Fastify, starts a `text/event-stream` and writes the `: ok` comment.
 * Headers already set on the reply by hooks (CORS, rate-limit figures, request id) are kept: a
 * hijacked reply would drop them.
 */
export function openEventStream(reply: FastifyReply): FastifyReply['raw'] {
  reply.hijack();
  reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...SSE_HEADERS, connection: 'keep-alive' });
  reply.raw.write(OPENED);
  return reply.raw;
}

/** A live stream of already framed messages, with a heartbeat; a client too far behind is dropped. */
export interface LiveStream {
  send(frame: Buffer): void;
  end(): void;
  /** Runs `fn` once the client has gone. */
  onClose(fn: () => void): void;
}

export function openLiveStream(request: FastifyRequest, reply: FastifyReply, heartbeatMs: number): LiveStream {
  const res = openEventStream(reply);
  const stream: LiveStream = {
    send(frame) {
      if (res.destroyed || res.writableEnded) return;
      res.write(frame);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    },
    end: () => res.end(),
    onClose: (fn) => void request.raw.once('close', fn),
  };
  const heartbeat = setInterval(() => stream.send(HEARTBEAT), heartbeatMs);
  request.raw.once('close', () => clearInterval(heartbeat));
  return stream;
}
