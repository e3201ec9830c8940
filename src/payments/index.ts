import type { Deps } from '../deps.js';
import { CheckoutVerifier } from './checkout.js';
import { Facilitator } from './facilitator.js';
import { X402Gate } from './gate.js';
import { Passes } from './passes.js';
import { IdempotentRequests } from './idempotency.js';

/** The payment gate from configuration: x402 always, a facilitator and Stripe when configured. */
export function createPaymentGate(deps: Deps, secrets: { memo: Buffer; pass: Buffer }): X402Gate {
  const { config, clock } = deps;
  const repo = deps.repos.payments;
  return new X402Gate({
    config,
    clock,
    repo,
    passes: new Passes(repo, secrets.pass),
    memoSecret: secrets.memo,
    facilitator: config.facilitatorUrl ? new Facilitator(config.facilitatorUrl, config.facilitatorAuth) : undefined,
    checkout: config.stripeSecretKey ? new CheckoutVerifier(config.stripeSecretKey, config.stripeApiUrl) : undefined,
    idempotency: new IdempotentRequests(deps.repos.idempotency, clock),
    ...(config.testCrashAt === 'after_charge' ? { afterCharge: () => process.kill(process.pid, 'SIGKILL') } : {}),
  });
}
