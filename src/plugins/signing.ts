import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import type { SigningKey } from '../receipts/keys.js';
import { requestHash, responseHash, signReceipt, type Receipt } from '../receipts/receipt.js';

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

export interface SigningOptions {
  key: SigningKey;
  issuer: string;
  clock: Clock;
  /** SVC_DEMO=1: every signed body and its receipt carry `source_mode: "demo"`, inside what is signed. */
  demo?: boolean;
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

export function registerSigning(app: FastifyInstance, { key, issuer, clock, demo = false }: SigningOptions): void {
  const reuse = new Map<string, Receipt>();
  app.decorateReply('provenance', undefined);
  app.decorateReply('keepAnswer', undefined);

  // Callback style: no promise per answer on the hot path.
  app.addHook(
    'onSend',
    (request: FastifyRequest, reply: FastifyReply, sent: unknown, done: (error: Error | null, payload?: unknown) => void) => {
      if (!request.routeOptions.config?.signed || reply.statusCode >= 300 || typeof sent !== 'string' || !sent.startsWith('{')) {
        return done(null, sent);
      }
      let signed: string;
      try {
        signed = signedPayload(request, reply, sent);
      } catch (error) {
        return done(error as Error);
      }
      if (reply.keepAnswer) reply.header('etag', reply.keepAnswer(signed));
      done(null, signed);
    },
  );

  function signedPayload(request: FastifyRequest, reply: FastifyReply, sent: string): string {
    const payload = demo ? stampDemo(sent) : sent;
    // Fast path: the same request answered with the same bytes reuses its receipt without re-canonicalizing.
    const provenance = reply.provenance;
    const fastKey = createHash('sha256')
      .update(
        `${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}\n${JSON.stringify(provenance ?? null)}\n`,
      )
      .update(payload)
      .digest('base64url');
    let receipt = reuse.get(fastKey);
    if (!receipt) {
      const body = JSON.parse(payload) as Record<string, unknown>;
      const sources = [...new Set(provenance?.sources ?? (typeof body.source === 'string' ? [body.source] : []))].sort();
      const asOf = provenance?.asOf ?? (Number.isInteger(body.as_of) ? (body.as_of as number) : unixSeconds(clock));
      receipt = signReceipt(key, {
        request_hash: requestHash(describeRequest(request)),
        response_hash: responseHash(body),
        as_of: asOf,
        issued_at: unixSeconds(clock),
        sources,
        issuer,
        ...(demo ? { source_mode: 'demo' as const } : {}),
      });
      if (reuse.size >= REUSE_LIMIT) reuse.delete(reuse.keys().next().value as string);
      reuse.set(fastKey, receipt);
    }
    return payload === '{}' ? `{"_receipt":${JSON.stringify(receipt)}}` : `${payload.slice(0, -1)},"_receipt":${JSON.stringify(receipt)}}`;
  }
}
