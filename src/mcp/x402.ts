import type { ServiceAnswer } from './caller.js';

/**
 * x402 over MCP (the x402 MCP transport): a payment travels in the request's
 * `_meta["x402/payment"]`, the settlement comes back in the result's `_meta["x402/payment-response"]`,
 * and an unpaid call answers with the `PaymentRequired` object. Between the two, the payment is
 * handed to the route in the header its version uses over HTTP, so the payment gate verifies,
 * claims, replays and releases it exactly as it does for any HTTP client.
 */
export const PAYMENT_META = 'x402/payment';
export const PAYMENT_RESPONSE_META = 'x402/payment-response';

const decode = (base64: string): unknown => JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));

/** The HTTP header carrying a `_meta` payment: `PAYMENT-SIGNATURE` for a v2 payload, `X-Payment` for anything else (v1). */
export function paymentHeaderOf(payload: unknown): Record<string, string> {
  const version = (payload as { x402Version?: unknown } | null)?.x402Version;
  const value = Buffer.from(JSON.stringify(payload)).toString('base64');
  return { [version === 2 ? 'payment-signature' : 'x-payment']: value };
}

/**
 * The x402 `PaymentRequired` of a 402: the v2 object from `PAYMENT-REQUIRED` when the gate offers v2,
 * else the v1 fields of the body. A failed settlement adds its response, as the transport provides.
 */
export function paymentRequiredOf(answer: ServiceAnswer): Record<string, unknown> {
  const body = (answer.body ?? {}) as Record<string, unknown>;
  const header = answer.headers['payment-required'];
  const required = header
    ? (decode(header) as Record<string, unknown>)
    : { x402Version: body.x402Version ?? 1, error: body.reason ?? body.error, accepts: body.accepts ?? [] };
  const settlement = paymentResponseOf(answer);
  return settlement ? { ...required, [PAYMENT_RESPONSE_META]: settlement } : required;
}

/** The settlement response of an answer (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`), if it carries one. */
export function paymentResponseOf(answer: ServiceAnswer): unknown {
  const header = answer.headers['payment-response'] ?? answer.headers['x-payment-response'];
  return header ? decode(header) : undefined;
}
