import { ApiError } from './errors.js';

/**
 * The 402 as an ApiError carrying the challenge body (x402 v1 and the seed's invoice) and headers
 * (`PAYMENT-REQUIRED` for x402 v2); the error handler sends them verbatim.
 */
export class PaymentRequiredError extends ApiError {
  constructor(
    readonly challenge: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super('payment_required', String(challenge.message));
  }

  /**
   * The `X-Payment-Required` header: the challenge as the interface spec describes it, with
   * `amount, asset, chain, recipient, memo, expires` at its top level (the body nests them in `invoice`).
   */
  get headerChallenge(): string {
    return JSON.stringify(this.challenge.invoice);
  }
}
