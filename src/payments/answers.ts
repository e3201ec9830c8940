import type { FastifyReply } from 'fastify';
import type { StoredAnswer } from '../store/repos/idempotency.js';

export type { StoredAnswer };

/** Headers that belong to the answer; the others (request id, rate limits, CORS) describe each exchange anew. */
const ANSWER_HEADERS = ['content-type', 'x-payment-response', 'payment-response', 'x-payment-status'] as const;

export function captureAnswer(reply: FastifyReply, body: string): StoredAnswer {
  const headers: Record<string, string> = {};
  for (const name of ANSWER_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body };
}

/** Sends a stored answer as it was. A Buffer passes the serializer and the receipt signer untouched. */
export function sendStoredAnswer(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).send(Buffer.from(answer.body, 'utf8'));
}
