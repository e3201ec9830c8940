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
/**
 * Vercel's `x402-mcp` (`withPayment`, `paidTool`) names the keys with a dot and sends the v1 `X-PAYMENT` value itself,
 * base64 JSON, as a string. svc takes it as the same payment and answers the settlement under the key it came with.
 */
export const X402_MCP_PAYMENT_META = 'x402.payment';
export const X402_MCP_PAYMENT_RESPONSE_META = 'x402.payment-response';
/** What HTTP says in `X-Payment-Status`: `unsettled` (settlement off), `pending` (settled later) or `released`. */
export const PAYMENT_STATUS_META = 'svc/payment-status';

/** A payment found in a request's `_meta`, and the key its settlement is answered under. */
export interface McpPayment {
  payment: unknown;
  responseKey: typeof PAYMENT_RESPONSE_META | typeof X402_MCP_PAYMENT_RESPONSE_META;
}

export function paymentInMeta(meta: Record<string, unknown> | undefined): McpPayment | undefined {
  if (meta?.[PAYMENT_META] !== undefined) return { payment: meta[PAYMENT_META], responseKey: PAYMENT_RESPONSE_META };
  if (meta?.[X402_MCP_PAYMENT_META] !== undefined)
    return { payment: meta[X402_MCP_PAYMENT_META], responseKey: X402_MCP_PAYMENT_RESPONSE_META };
  return undefined;
}

export const decodeBase64Json = (base64: string): unknown => JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));

/** A payload object, or a string holding one as a payment header does (base64 JSON or raw JSON); undefined if unreadable. */
type Payload = { x402Version?: unknown } | null;
function payloadOf(payment: unknown): Payload | undefined {
  if (typeof payment !== 'string') return payment as Payload;
  try {
    return (payment.trim().startsWith('{') ? JSON.parse(payment) : decodeBase64Json(payment)) as Payload;
  } catch {
    return undefined;
  }
}

/**
 * The HTTP header carrying a `_meta` payment: `PAYMENT-SIGNATURE` for a v2 payload, `X-Payment` for anything else (v1).
 * An unreadable string goes as it is, so the gate refuses it with the 400 it gives any malformed payment header.
 */
export function paymentHeaderOf(payment: unknown): Record<string, string> {
  const payload = payloadOf(payment);
  if (payload === undefined) return { 'x-payment': String(payment) };
  const version = payload?.x402Version;
  const value = Buffer.from(JSON.stringify(payload)).toString('base64');
  return { [version === 2 ? 'payment-signature' : 'x-payment']: value };
}

/** The settlement response of an answer (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`), if it carries one. */
export function paymentResponseOf(answer: ServiceAnswer): unknown {
  const header = answer.headers['payment-response'] ?? answer.headers['x-payment-response'];
  return header ? decodeBase64Json(header) : undefined;
}

/** A paid answer's payment `_meta`: the settlement under the key the payment came with, and the status HTTP sends. */
export function paymentMeta(
  answer: ServiceAnswer,
  responseKey: McpPayment['responseKey'] = PAYMENT_RESPONSE_META,
): Record<string, unknown> {
  const settlement = paymentResponseOf(answer);
  const status = answer.headers['x-payment-status'];
  return { ...(settlement ? { [responseKey]: settlement } : {}), ...(status ? { [PAYMENT_STATUS_META]: status } : {}) };
}
