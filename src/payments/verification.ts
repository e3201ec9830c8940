import type { Config } from '../config.js';
import type { Facilitator } from './facilitator.js';
import { checkEoaSignature, checkTerms, isEoaSignature, type Expectation, type Payment } from './x402.js';

/** A payment's verdict: its payer, or why it is refused (svc's reason or the facilitator's `invalidReason`). */
export type Verdict = { ok: true; payer: string } | { ok: false; reason: string };

/**
 * PAYMENT_VERIFY. svc always checks the terms itself (scheme, network, recipient, amount, time
 * window: the facilitator does not know svc's window). The signature: `local` checks an EOA's
 * offline and sends any other (a smart wallet's EIP-1271 / EIP-6492 signature) to the
 * facilitator's `POST /verify`; `facilitator` sends every payment there; `both` checks EOA
 * signatures offline first and then asks the facilitator too (balance, nonce, smart wallets).
 * FacilitatorUnavailable when the facilitator gives no verdict.
 */
export class PaymentVerifier {
  constructor(
    private readonly mode: Config['paymentVerify'],
    private readonly facilitator?: Facilitator,
  ) {}

  /** `requirements`: what the facilitator verifies against, in the wire version of the payment. */
  async verify(payment: Payment, expect: Expectation, requirements: unknown): Promise<Verdict> {
    const terms = await checkTerms(payment, expect);
    if (!terms.ok) return terms;
    const eoa = isEoaSignature(payment.payload.signature);
    if (eoa && this.mode !== 'facilitator') {
      if (!(await checkEoaSignature(payment, expect.network))) return { ok: false, reason: 'invalid_exact_evm_payload_signature' };
      if (this.mode === 'local') return terms;
    }
    // A smart wallet's signature without a facilitator cannot be checked: refused, as svc cannot call the chain.
    if (!this.facilitator) return { ok: false, reason: 'invalid_exact_evm_payload_signature' };
    const verdict = await this.facilitator.verify(payment.wire, requirements);
    return verdict.isValid ? terms : { ok: false, reason: verdict.invalidReason ?? 'invalid_payment' };
  }
}
