import type { ResponseMeta } from './meta.js';

/** Base class of every error the SDK throws, so callers can catch them apart from their own. */
export class SvcClientError extends Error {
  override name = 'SvcClientError';
}

/** The service answered with a 4xx/5xx house error body `{error, message, details?}`. */
export class SvcHttpError extends SvcClientError {
  override name = 'SvcHttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
    /** Request id, rate limit and Retry-After of the answer. */
    readonly meta?: ResponseMeta,
  ) {
    super(`${status} ${code}: ${message}${meta?.requestId ? ` (request ${meta.requestId})` : ''}`);
  }

  get requestId(): string | undefined {
    return this.meta?.requestId;
  }
}

/** The service could not be reached (after the retries). */
export class SvcNetworkError extends SvcClientError {
  override name = 'SvcNetworkError';
}

/** No answer within the call's timeout (`timeoutMs`); not retried. */
export class SvcTimeoutError extends SvcNetworkError {
  override name = 'SvcTimeoutError';
}

/** A payment is needed and cannot be made: no wallet, no payable option, or the server refused the payment. */
export class PaymentRequiredError extends SvcClientError {
  override name = 'PaymentRequiredError';
  constructor(
    message: string,
    /** The server's reason (`invalid_exact_evm_payload_signature`, `pass_expired`, …) when it gave one. */
    readonly reason: string | undefined,
    /** Price of the cheapest option in USDC atomic units (6 decimals), when known. */
    readonly amount: bigint | undefined,
  ) {
    super(message);
  }
}

/** Refused before signing: the payment would exceed the per-call or the per-client spend cap. */
export class SpendCapError extends SvcClientError {
  override name = 'SpendCapError';
  constructor(
    readonly cap: 'per_call' | 'session',
    /** What was asked, and the room left under the cap, in USDC atomic units. */
    readonly amount: bigint,
    readonly remaining: bigint,
  ) {
    super(
      cap === 'per_call'
        ? `payment of ${formatUsd(amount)} exceeds the per-call cap of ${formatUsd(remaining)} (raise maxPaymentUsd)`
        : `payment of ${formatUsd(amount)} exceeds what is left of the session cap (${formatUsd(remaining)}; raise maxSessionUsd)`,
    );
  }
}

/** 1000 atomic units → "$0.001". */
export function formatUsd(atomic: bigint): string {
  const whole = atomic / 1_000_000n;
  const fraction = (atomic % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `$${whole}${fraction ? `.${fraction}` : ''}`;
}
