import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../core/clock.js';
import { etagOf } from '../core/etag.js';

/** The bytes of one signed answer, ready to send again while the value behind it is unchanged and fresh. */
interface HotAnswer {
  /** Encoded once: a hit writes these bytes without touching a string. */
  bytes: Buffer;
  etag: string;
  /** Unix ms after which the value behind the answer is past its TTL (then the full path decides). */
  freshUntil: number;
  /** The runner's store generation of the value; a newer store of the same key retires the answer. */
  generation: number | undefined;
  cacheKey: string;
}

/** What a handler knows about an answer it may keep: which cached value it shows and until when that is fresh. */
export interface Keepable {
  cacheKey: string;
  generation: number | undefined;
  freshUntil: number;
}

/** Answers kept at most, the oldest kept first out. */
export const MAX_ANSWERS = 10_000;
/** Every header the hooks set on the reply (request id, CORS, the RateLimit fields) and the answer's own, for the raw response. */
const headersOf = (reply: FastifyReply) => reply.getHeaders() as OutgoingHttpHeaders;

/** Does an If-None-Match header name this ETag (a list, weak forms, or `*`)? */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag || header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Signed answers of cached previews, kept by request URL: the same URL always describes the same
 * request (so the same `request_hash`), and an answer is served again only while the source value it
 * shows is the one the runner holds and still within its TTL. Signing and serializing then happen
 * once per distinct body, and a matching If-None-Match is a 304. Lookups are O(1); the store is
 * bounded (oldest first out).
 */
export class HotAnswers {
  private readonly answers = new Map<string, HotAnswer>();

  constructor(
    private readonly clock: Clock,
    private readonly generationOf: (cacheKey: string) => number | undefined,
  ) {}

  /** Keeps the final signed bytes of `url`'s answer; returns their ETag. */
  keep(url: string, bytes: string, keepable: Keepable): string {
    const etag = etagOf(bytes);
    this.answers.delete(url);
    this.answers.set(url, { bytes: Buffer.from(bytes), etag, ...keepable });
    if (this.answers.size > MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value as string);
    return etag;
  }

  /**
   * Route-level onRequest (after rate limiting): a live answer is sent as-is; anything else runs the
   * full path. The bytes go out on the raw response, skipping Fastify's send path and the onSend
   * hooks, which have nothing to do for a kept answer (already signed, a 200 or 304, no payment
   * claimed, no abuse signal). Headers set by the earlier hooks (request id, CORS, RateLimit-Policy and RateLimit) go
   * with it, handed to `writeHead` as the reply's own object: spreading them into a new one made a
   * dictionary-mode object that cost a third of a hit. The onResponse hooks (metrics) still run.
   */
  readonly serve: onRequestHookHandler = (request: FastifyRequest, reply: FastifyReply, done) => {
    const answer = this.live(request.url);
    if (!answer) return done();
    reply.header('etag', answer.etag).hijack();
    if (matchesEtag(request.headers['if-none-match'], answer.etag)) return void reply.raw.writeHead(304, headersOf(reply)).end();
    reply.header('content-type', 'application/json; charset=utf-8').header('content-length', answer.bytes.length);
    reply.raw.writeHead(200, headersOf(reply)).end(answer.bytes);
  };

  get size(): number {
    return this.answers.size;
  }

  private live(url: string): HotAnswer | undefined {
    const answer = this.answers.get(url);
    if (!answer) return undefined;
    if (answer.freshUntil > this.clock.now() && this.generationOf(answer.cacheKey) === answer.generation) return answer;
    this.answers.delete(url);
    return undefined;
  }
}
