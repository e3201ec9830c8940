import { once } from 'node:events';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One SSE message, encoded once and written as the same bytes to every client. `chunk` is the
 * message as one chunk of HTTP/1.1 chunked transfer coding (`<size in hex>\r\n<message>\r\n`),
 * what a stream writes straight to its socket; `body` is the message alone (a view into `chunk`).
 */
export class Frame {
  readonly chunk: Buffer;
  readonly body: Buffer;

  constructor(message: string) {
    const size = Buffer.byteLength(message);
    const head = `${size.toString(16)}\r\n`;
    this.chunk = Buffer.from(`${head}${message}\r\n`);
    this.body = this.chunk.subarray(head.length, head.length + size);
  }
}

/**
 * Server-sent events as the interface describes them: every message is an `id:` line and one
 * `data:` line holding one JSON object, then a blank line. No `event:` names: a browser
 * EventSource hands unnamed messages to `onmessage`, and a message named `error` would land in
 * `onerror` instead.
 */
export const frameOf = (id: string | number, data: object): Frame => new Frame(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);

/** A message without an id (state messages of a session stream): it does not move Last-Event-ID. */
export const idlessFrameOf = (data: object): Frame => new Frame(`data: ${JSON.stringify(data)}\n\n`);

/** The first bytes of every stream: clients (and the benchmarks) take it as "the stream is open". */
const OPENED = new Frame(': ok\n\n');
export const HEARTBEAT = new Frame(': heartbeat\n\n');
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

/** Route config of a stream route: its HEAD, which `answeredHead` answers, is documented beside its GET. */
export const STREAM_ROUTE_CONFIG = { swagger: { exposeHeadRoute: true } };

/**
 * An open event stream. Frames written after the headers go straight to the socket as chunks of
 * the response's chunked coding: going through `ServerResponse.write` cost about 9 µs of
 * JavaScript per client and message (chunk framing, stream bookkeeping), most of a fan-out's
 * user time. The response still owns the socket: it ends the stream (the last chunk) and reports
 * close. A response whose socket was not yet its own when the stream opened (a request pipelined
 * behind another) and any plain writable are written through `out.write`.
 */
export class EventStream {
  private readonly socket: Socket | undefined;
  /** False once ended, destroyed or closed: nothing may follow the last chunk on a socket that may carry the next request. */
  private open = true;
  /**
   * What runs once the client has gone, in the order given, from the stream's one 'close' listener: a `once` listener
   * per caller cost a wrapper, a bound function and its state each, kept for the stream's life (~0.2 KB per watcher).
   */
  private readonly closeCallbacks: (() => void)[] = [];

  constructor(
    private readonly out: Writable,
    direct?: { socket: Socket | null; chunked: boolean },
  ) {
    // Only a real connection: an injected request (tests) has a stand-in socket that drops what it is given.
    this.socket = direct?.chunked && direct.socket instanceof Socket ? direct.socket : undefined;
    if (out.closed || out.destroyed) this.open = false;
    else out.once('close', () => this.clientGone());
  }

  /** False when the client should be let drain before more is written (a closed stream never asks to wait). */
  write(frame: Frame): boolean {
    if (!this.open) return true;
    return this.socket ? this.socket.write(frame.chunk) : this.out.write(frame.body);
  }

  /** Bytes accepted and not yet handed to the kernel. */
  get pending(): number {
    return this.out.writableLength;
  }

  /** Resolves once the client has taken what is pending, or has gone. */
  drained(): Promise<unknown> {
    return Promise.race([once(this.socket ?? this.out, 'drain'), once(this.out, 'close')]);
  }

  /**
   * Runs `fn` once the client has gone, at once when it already has: a client that hangs up while
   * its stream is being set up (a slot taken in Redis, a session looked up) closed before anyone
   * listened, and a handler waiting for a 'close' that was already emitted would hold its slot forever.
   */
  onClose(fn: () => void): void {
    if (this.out.closed || this.out.destroyed) fn();
    else this.closeCallbacks.push(fn);
  }

  private clientGone(): void {
    this.open = false;
    for (const callback of this.closeCallbacks) callback();
  }

  end(): void {
    this.open = false;
    this.out.end();
  }

  destroy(): void {
    this.open = false;
    this.out.destroy();
  }
}

/**
 * Takes the response over from Fastify, starts a `text/event-stream` and writes the `: ok` comment.
 * Headers already set on the reply by hooks (CORS, rate-limit figures, request id) are kept: a
 * hijacked reply would drop them.
 */
export function openEventStream(reply: FastifyReply): EventStream {
  const res = reply.raw;
  reply.headers(SSE_HEADERS).header('connection', 'keep-alive').hijack();
  res.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
  res.write(OPENED.body); // the headers and the comment, through the response: from here on the socket carries only this stream
  releaseHeaderText(res);
  return new EventStream(res, { socket: res.socket, chunked: res.chunkedEncoding });
}

/** What a sent response's header text is replaced with: any non-empty string says "sent" to Node. */
const SENT_HEADER = 'sent';

/**
 * Node keeps a response's header text (`_header`, a rope of ~60 pieces, ~1.8 KB) as long as the response lives, and
 * once it has gone out (`_headerSent`) only tests it for truthiness (`headersSent`, `end`, the guards of `setHeader`
 * and `writeHead`): an event stream open for hours would hold it for nothing (18 MB for 10,000 watchers). Replaced by
 * one shared string once sent; left alone when not sent yet or where Node keeps it otherwise.
 */
function releaseHeaderText(res: ServerResponse): void {
  const internals = res as unknown as { _header: unknown; _headerSent: unknown };
  if (internals._headerSent === true && typeof internals._header === 'string') internals._header = SENT_HEADER;
}

/** A live stream of already framed messages, with a heartbeat; a client too far behind is dropped. */
export interface LiveStream {
  send(frame: Frame): void;
  end(): void;
  /** Runs `fn` once the client has gone. */
  onClose(fn: () => void): void;
}

export function openLiveStream(reply: FastifyReply, heartbeatMs: number): LiveStream {
  const stream = openEventStream(reply);
  const live: LiveStream = {
    send(frame) {
      stream.write(frame);
      if (stream.pending > MAX_BUFFERED_BYTES) stream.destroy();
    },
    end: () => stream.end(),
    onClose: (fn) => stream.onClose(fn),
  };
  const heartbeat = setInterval(() => live.send(HEARTBEAT), heartbeatMs);
  stream.onClose(() => clearInterval(heartbeat));
  return live;
}
