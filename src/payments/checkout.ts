import type Stripe from 'stripe';
import { ApiError } from '../core/errors.js';
import { importOnce } from '../core/import-once.js';
import { PASS_PRICE_CENTS } from './pricing.js';
import type { PassKind } from './passes.js';

const SESSION_ID = { live: /^cs_live_[A-Za-z0-9]{1,250}$/, test: /^cs_test_[A-Za-z0-9]{1,250}$/ };

const loadStripe = importOnce(() => import('stripe'));

/**
 * Checks a Stripe Checkout session once: complete, paid, in the key's mode, and for the exact amount
 * of a pass. Unknown or unpaid → 402 with a reason; malformed → 400; Stripe unreachable → 503.
 */
export class CheckoutVerifier {
  private readonly options: Stripe.StripeConfig;
  private readonly testMode: boolean;
  private client?: Promise<Stripe>;

  constructor(
    private readonly secretKey: string,
    apiUrl?: string,
  ) {
    const url = apiUrl ? new URL(apiUrl) : undefined;
    this.options = {
      maxNetworkRetries: 1,
      timeout: 8000,
      ...(url
        ? {
            host: url.hostname,
            port: Number(url.port) || (url.protocol === 'http:' ? 80 : 443),
            protocol: url.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    };
    this.testMode = secretKey.includes('_test_');
  }

  /** The official client, built on the first session check. */
  private stripe(): Promise<Stripe> {
    return (this.client ??= loadStripe().then(({ default: StripeClient }) => new StripeClient(this.secretKey, this.options)));
  }

  assertWellFormed(sessionId: string): void {
    const pattern = this.testMode ? SESSION_ID.test : SESSION_ID.live;
    if (!pattern.test(sessionId)) {
      throw new ApiError('validation_failed', `session_id must look like ${this.testMode ? 'cs_test_…' : 'cs_live_…'}`, {
        field: 'session_id',
        rule: 'pattern',
      });
    }
  }

  /** The pass the session paid for, or a 402 saying why it does not count as payment. */
  async passKind(sessionId: string, refuse: (reason: string) => Error): Promise<PassKind> {
    const stripe = await this.stripe();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId);
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404) throw refuse('checkout_session_unknown');
      throw new ApiError('service_unavailable', 'the checkout provider could not be reached; try again', {
        reason: 'checkout_unreachable',
      });
    }
    if (session.status !== 'complete' || session.payment_status === 'unpaid') throw refuse('checkout_session_unpaid');
    if (session.livemode === this.testMode) throw refuse('checkout_session_wrong_mode');
    const kind = (Object.entries(PASS_PRICE_CENTS) as [PassKind, number][]).find(([, cents]) => cents === session.amount_total)?.[0];
    if (!kind || session.currency !== 'usd') throw refuse('checkout_session_amount_mismatch');
    return kind;
  }
}
