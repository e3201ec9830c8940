import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import type { SigningKey } from '../core/signing-keys.js';
import { signLoggedReceipt, type ReceiptLog, type UnsignedReceipt } from '../core/logged-receipt.js';
import { requestHash, responseHash, signReceipt, type Receipt } from '../core/receipt.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opt in to an Ed25519 `_receipt` on 2xx JSON responses. */
    signed?: boolean;
  }
  interface FastifyReply {
    /** Data time and upstreams for the receipt; default: the body's `as_of` and `source`, else signing time and none. */
    provenance?: { asOf?: number; sources?: string[] };
    /** Receives the final signed bytes of a 2xx answer to keep for reuse; returns their ETag. */
    keepAnswer?: (bytes: string) => string;
  }
}

/** Identical request + response pairs reuse their receipt: signing is the costly part of a cached hit. */
const REUSE_LIMIT = 10_000;

/**
 * Fields stamped per answer, not per value: `age_s` (sources/freshness.ts) and `cached`. A body differing only in
 * them is a resend of a logged body, not a new one.
 */
const PER_ANSWER_FIELDS = new Set(['age_s', 'cached']);

export interface SigningOptions {
  key: SigningKey;
  issuer: string;
  clock: Clock;
  /** SVC_DEMO=1: every signed body and its receipt carry `source_mode: "demo"`, inside what is signed. */
  demo?: boolean;
  /** The transparency log: the first signing of each body is logged (docs/transparency-log.md). */
  log?: ReceiptLog;
}

/** A serialized JSON object with top-level `source_mode: "demo"` (the body is hashed after this). */
function stampDemo(payload: string): string {
  const body = JSON.parse(payload) as Record<string, unknown>;
  return body.source_mode === 'demo' ? payload : JSON.stringify({ source_mode: 'demo', ...body });
}

/**
 * For writes that return a receipt: a check to run on the finished response before the write commits,
 * throwing if the receipt could not be computed (e.g. a body canonical JSON cannot serialize), so a
 * failed answer leaves nothing stored.
 */
export const signableOrThrow =
  (request: FastifyRequest) =>
  (response: Record<string, unknown>): void => {
    requestHash(describeRequest(request));
    responseHash(response);
  };

function describeRequest(request: FastifyRequest) {
  const query = Object.fromEntries(new URLSearchParams(request.url.split('?')[1] ?? ''));
  return { method: request.method, path: request.url.split('?')[0]!, query, body: request.body ?? null };
}

/** Remembers, boundedly, the keys seen last; `add` answers whether the key is new. */
class RecentKeys {
  private readonly keys = new Set<string>();
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    if (this.keys.size >= REUSE_LIMIT) this.keys.delete(this.keys.values().next().value as string);
    this.keys.add(key);
    return true;
  }
  delete(key: string): void {
    this.keys.delete(key);
  }
}

const withReceipt = (payload: string, receipt: Receipt): string =>
  payload === '{}' ? `{"_receipt":${JSON.stringify(receipt)}}` : `${payload.slice(0, -1)},"_receipt":${JSON.stringify(receipt)}}`;

/**
 * Signs 2xx JSON answers of routes with `config.signed`. Identical answers reuse their receipt. With a log, the first
 * signing of a body is logged: its receipt carries `log` and is answered only once the entry is committed. A body
 * re-signed only because a per-answer field moved (a hot preview's `age_s`, at most once a second) gets an unlogged
 * receipt: its value was logged when first signed, and the hot path stays free of database writes.
 */
export function registerSigning(app: FastifyInstance, { key, issuer, clock, demo = false, log }: SigningOptions): void {
  const reuse = new Map<string, Receipt>();
  const logged = new RecentKeys();
  app.decorateReply('provenance', undefined);
  app.decorateReply('keepAnswer', undefined);

  // Callback style: no promise per answer on the hot path.
  app.addHook(
    'onSend',
    (request: FastifyRequest, reply: FastifyReply, sent: unknown, done: (error: Error | null, payload?: unknown) => void) => {
      if (!request.routeOptions.config?.signed || reply.statusCode >= 300 || typeof sent !== 'string' || !sent.startsWith('{')) {
        return done(null, sent);
      }
      const finish = (signed: string) => {
        if (reply.keepAnswer) reply.header('etag', reply.keepAnswer(signed));
        done(null, signed);
      };
      let signed: string | Promise<string>;
      try {
        signed = signedPayload(request, reply, sent);
      } catch (error) {
        return done(error as Error);
      }
      if (typeof signed === 'string') return finish(signed);
      signed.then(finish, (error: Error) => done(error));
    },
  );

  function signedPayload(request: FastifyRequest, reply: FastifyReply, sent: string): string | Promise<string> {
    const payload = demo ? stampDemo(sent) : sent;
    // Fast path: the same request answered with the same bytes reuses its receipt without re-canonicalizing.
    const provenance = reply.provenance;
    const fastKey = createHash('sha256')
      .update(
        `${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}\n${JSON.stringify(provenance ?? null)}\n`,
      )
      .update(payload)
      .digest('base64url');
    const reused = reuse.get(fastKey);
    if (reused) return withReceipt(payload, reused);
    const body = JSON.parse(payload) as Record<string, unknown>;
    const unsigned = describeAnswer(request, provenance, body);
    const keep = (receipt: Receipt) => {
      if (reuse.size >= REUSE_LIMIT) reuse.delete(reuse.keys().next().value as string);
      reuse.set(fastKey, receipt);
      return withReceipt(payload, receipt);
    };
    if (!log) return keep(signReceipt(key, unsigned));
    const identity = bodyKey(unsigned.request_hash, body);
    if (!logged.add(identity)) return keep(signReceipt(key, unsigned));
    return signLoggedReceipt(key, log, unsigned).then(keep, (error: unknown) => {
      // Not logged after all: the next signing of this body tries again.
      logged.delete(identity);
      throw error;
    });
  }

  function describeAnswer(request: FastifyRequest, provenance: FastifyReply['provenance'], body: Record<string, unknown>): UnsignedReceipt {
    const sources = [...new Set(provenance?.sources ?? (typeof body.source === 'string' ? [body.source] : []))].sort();
    const asOf = provenance?.asOf ?? (Number.isInteger(body.as_of) ? (body.as_of as number) : unixSeconds(clock));
    return {
      request_hash: requestHash(describeRequest(request)),
      response_hash: responseHash(body),
      as_of: asOf,
      issued_at: unixSeconds(clock),
      sources,
      issuer,
      ...(demo ? { source_mode: 'demo' as const } : {}),
    };
  }
}

/** A body's identity for the log: the request and the body without its per-answer fields. */
const bodyKey = (requestHashValue: string, body: Record<string, unknown>): string =>
  createHash('sha256')
    .update(requestHashValue)
    .update(JSON.stringify(body, (name, value: unknown) => (PER_ANSWER_FIELDS.has(name) ? undefined : value)))
    .digest('base64url');
