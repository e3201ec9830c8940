import type { FastifyRequest } from 'fastify';
import { ApiError } from '../core/errors.js';
import { PASS_PREFIX } from './passes.js';
import { HeaderNotJson, PAYMENT_HEADERS, decodePaymentHeader, type Payment, type Reason } from './x402.js';

// The payment credentials a request presents: an x402 payment header or a pass token.

const bearer = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * The pass a request presents: `Authorization: Bearer svc-pass_…`, or `X-Svc-Pass: svc-pass_…` when
 * Authorization carries another credential (an agent key on calibration writes). Other bearer
 * tokens are not passes.
 */
export function passToken(request: FastifyRequest): string | undefined {
  const token = bearer(request);
  if (token?.startsWith(PASS_PREFIX)) return token;
  const header = request.headers['x-svc-pass'];
  return typeof header === 'string' && header.trim() ? header.trim() : undefined;
}

const VERSION_OF_HEADER = new Map<string, 1 | 2>([
  ['x-payment', 1],
  ['payment-signature', 2],
]);

/**
 * The payment a request carries, if any: `X-Payment` (x402 v1) or `PAYMENT-SIGNATURE` (v2). Node
 * joins a repeated header with ", ", which would hide a second authorization inside the first: more
 * than one payment header is a 400 naming them.
 */
export function presentedPayment(request: FastifyRequest): { version: 1 | 2; header: string } | undefined {
  const raw = request.raw.rawHeaders;
  const sent = raw.flatMap((name, i) =>
    i % 2 === 0 && VERSION_OF_HEADER.has(name.toLowerCase()) ? [VERSION_OF_HEADER.get(name.toLowerCase())!] : [],
  );
  if (sent.length > 1) {
    const field = [...new Set(sent)].map((v) => PAYMENT_HEADERS[v]).join(', ');
    throw new ApiError('bad_request', `send one payment header (${field}), not ${sent.length}`, {
      field,
      rule: 'single',
      count: sent.length,
    });
  }
  const version = sent[0];
  const header = version && request.headers[PAYMENT_HEADERS[version].toLowerCase()];
  return version && typeof header === 'string' && header.trim() ? { version, header } : undefined;
}

/**
 * The payment in a presented header, or why it is refused with a 402 (a version the header does not
 * carry). A malformed payment is a 400 naming the header (x402's HTTP transport: "Invalid Payment"):
 * neither JSON nor base64 JSON (`rule: json`), or JSON that is not a payment payload (`rule: x402_payload`).
 */
export function decodePresentedPayment(presented: {
  version: 1 | 2;
  header: string;
}): { ok: true; payment: Payment } | { ok: false; reason: Reason } {
  const field = PAYMENT_HEADERS[presented.version];
  let decoded;
  try {
    decoded = decodePaymentHeader(presented.header, presented.version);
  } catch (e) {
    if (e instanceof HeaderNotJson) throw new ApiError('bad_request', e.message, { field, rule: 'json' });
    throw e;
  }
  if (!decoded.ok && decoded.reason === 'invalid_payload')
    throw new ApiError('bad_request', `${field} is not an x402 v${presented.version} payment payload (exact scheme)`, {
      field,
      rule: 'x402_payload',
      reason: 'invalid_payload',
    });
  return decoded;
}
