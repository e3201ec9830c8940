import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../core/clock.js';
import { etagOf } from '../core/etag.js';

/** The bytes of one signed answer, ready to send again while the value behind it is unchanged and fresh. */
interface HotAnswer {
  /** Encoded once: a hit writes these bytes without touching a string. */
  bytes: Buffer;
  etag: string;
  /** Unix ms after which the answer is stale: the end of the second it was signed in, or its value's TTL if sooner. */
  freshUntil: number;
  /** Unix ms after which the value behind the answer is past its TTL (then the full path asks upstream). */
  valueFreshUntil: number;
  /** The runner's store generation of the value; a newer store of the same key retires the answer. */
  generation: number | undefined;
  cacheKey: string;
}

/** A full path under way for a URL whose kept answer went stale: `settle` wakes the requests waiting for it. */
interface Making {
  made: Promise<void>;
  settle: () => void;
}

/** What a handler knows about an answer it may keep: which cached value it shows and until when that is fresh. */
export interface Keepable {
  cacheKey: string;
  generation: number | undefined;
  freshUntil: number;
  valueFreshUntil: number;
}

/** Answers kept at most, the oldest kept first out. */
export const MAX_ANSWERS = 10_000;
/**
 * How long requests wait for the full path that is signing their URL's answer again before taking their own. A
 * re-signing takes a cache read (Redis on shared backends) and a signature; a slow store delays the waiting requests by
 * no more than this.
 */
export const MAKING_WAIT_MS = 1_000;
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
 *
 * When a kept answer goes stale only because its second is over (rows say their age in whole seconds) while the value
 * behind it is still the runner's and fresh, the first request for its URL takes the full path to sign the new body and
 * the requests arriving meanwhile wait for it (at most MAKING_WAIT_MS) instead of each signing the same body: under
 * load that herd was most of a hot URL's full-path work. A value past its TTL or replaced is not waited for: its full
 * path asks upstream or may fail, and the runner already shares one upstream call between the requests.
 */
export class HotAnswers {
  private readonly answers = new Map<string, HotAnswer>();
  /** URLs whose stale answer a full path is making again; one entry per URL, gone once it settles. */
  private readonly making = new Map<string, Making>();

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
    this.making.get(url)?.settle();
    return etag;
  }

  /**
   * Route-level onRequest (after rate limiting): a live answer is sent as-is; a request for a URL whose answer is
   * being made again waits for it; anything else runs the full path. The bytes go out on the raw response, skipping
   * Fastify's send path and the onSend hooks, which have nothing to do for a kept answer (already signed, a 200 or
   * 304, no payment claimed, no abuse signal). Headers set by the earlier hooks (request id, CORS, RateLimit-Policy
   * and RateLimit) go with it, handed to `writeHead` as the reply's own object: spreading them into a new one made a
   * dictionary-mode object that cost a third of a hit. The onResponse hooks (metrics) still run.
   */
  readonly serve: onRequestHookHandler = (request: FastifyRequest, reply: FastifyReply, done) => {
    const url = request.url;
    const kept = this.answers.get(url);
    if (kept && this.isLive(kept)) return this.send(request, reply, kept);
    const making = this.making.get(url);
    if (making) return void making.made.then(() => this.serveMade(request, reply, done));
    if (kept) {
      this.answers.delete(url);
      if (this.onlyItsSecondIsOver(kept)) this.startMaking(url, reply);
    }
    done();
  };

  get size(): number {
    return this.answers.size;
  }

  private send(request: FastifyRequest, reply: FastifyReply, answer: HotAnswer): void {
    reply.header('etag', answer.etag).hijack();
    if (matchesEtag(request.headers['if-none-match'], answer.etag)) return void reply.raw.writeHead(304, headersOf(reply)).end();
    reply.header('content-type', 'application/json; charset=utf-8').header('content-length', answer.bytes.length);
    reply.raw.writeHead(200, headersOf(reply)).end(answer.bytes);
  }

  /** After waiting: the answer the other request kept, or the full path when it kept none (or the client left). */
  private serveMade(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const made = this.answers.get(request.url);
    if (made && this.isLive(made) && !reply.raw.destroyed) this.send(request, reply, made);
    else done();
  }

  /** This request's full path makes the URL's answer again; it settles when kept, when the response closes, or in MAKING_WAIT_MS. */
  private startMaking(url: string, reply: FastifyReply): void {
    let wake!: () => void;
    const made = new Promise<void>((resolve) => (wake = resolve));
    const making: Making = {
      made,
      settle: () => {
        clearTimeout(timer);
        if (this.making.get(url) === making) this.making.delete(url);
        wake();
      },
    };
    const timer = setTimeout(making.settle, MAKING_WAIT_MS).unref();
    this.making.set(url, making);
    reply.raw.once('close', making.settle);
  }

  private isLive(answer: HotAnswer): boolean {
    return answer.freshUntil > this.clock.now() && this.isCurrent(answer);
  }

  /** Stale, but its value is still the runner's and fresh: a new signing is all a new answer needs. */
  private onlyItsSecondIsOver(answer: HotAnswer): boolean {
    return answer.valueFreshUntil > this.clock.now() && this.isCurrent(answer);
  }

  private isCurrent(answer: HotAnswer): boolean {
    return this.generationOf(answer.cacheKey) === answer.generation;
  }
}
