import { readRateLimit } from '../protection/ratelimit-fields.js';
import type { ServiceAnswer } from './caller.js';

/** `_meta` key of a tool result's rate-limit numbers: `{policy, quota, window_s, remaining, reset_s, retry_after_s?}`. */
export const RATE_LIMIT_META = 'svc/ratelimit';
/** `_meta` key of a paid tool's 402: `{price, buys, alternatives}`, the cheaper ways to an answer. */
export const PAYMENT_OPTIONS_META = 'svc/payment-options';

/**
 * What a tool result's `_meta` says about limits, read from the route's answer as any HTTP client would read it (the
 * RateLimit fields and Retry-After; the 402 body's price and alternatives), so an agent framework backs off or picks
 * the free tier without parsing text. Works the same in process and over the network (stdio).
 */
export function limitsMeta(answer: ServiceAnswer): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  const limits = readRateLimit(answer.headers);
  const retryAfter = answer.headers['retry-after'];
  if (limits) meta[RATE_LIMIT_META] = limits;
  else if (retryAfter && /^\d+$/.test(retryAfter)) meta[RATE_LIMIT_META] = { retry_after_s: Number(retryAfter) };
  const body = answer.body as { price?: unknown; buys?: unknown; alternatives?: unknown } | undefined;
  if (answer.status === 402 && body?.alternatives)
    meta[PAYMENT_OPTIONS_META] = { price: body.price, buys: body.buys, alternatives: body.alternatives };
  return meta;
}
