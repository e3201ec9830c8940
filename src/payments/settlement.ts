import type { Config } from '../config.js';
import { unixSeconds } from '../core/clock.js';
import type { AuthorizationCharge } from '../store/repos/idempotency.js';
import { settlementResponseHeader } from './challenge.js';
import type { Claim, GateDeps } from './gate-types.js';
import { USDC_NETWORKS } from './networks.js';

/** An authorization as the repository stores it: the decoded payment payload. */
type StoredPayload = { x402Version: number };

/** A settlement's outcome: the headers to answer with and the status to record; `failed` names a sync failure's reason. */
export interface Settled {
  headers: Record<string, string>;
  authorization: AuthorizationCharge;
  failed?: string;
}

/**
 * Settles one claimed authorization per PAYMENT_SETTLE: `off` and `async` record it as unsettled or pending (the
 * settle job takes it later), `sync` asks the facilitator now. The settlement result goes in the header of the version
 * paid (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`, `{success, transaction, network, payer, errorReason?}`).
 */
export async function settleAuthorization(
  { repo, facilitator, config }: Pick<GateDeps, 'repo' | 'facilitator' | 'config'>,
  { authKey, version }: Claim,
  mode: Config['paymentSettle'],
): Promise<Settled> {
  const row = (await repo.find(authKey))!;
  const unsettled = (status: 'unsettled' | 'pending'): Settled => ({
    headers: { 'x-payment-status': status },
    authorization: { authKey, status, settleAttempts: row.settle_attempts, facilitatorJson: row.facilitator_json },
  });
  if (mode === 'off' || !facilitator) return unsettled('unsettled');
  if (mode === 'async') return unsettled('pending');
  const result = await facilitator.settle(JSON.parse(row.payload_json) as StoredPayload, JSON.parse(row.requirements_json));
  const network = version === 2 ? USDC_NETWORKS[config.x402Network].caip2 : config.x402Network;
  const { success, transaction = '', errorReason } = result;
  return {
    headers: settlementResponseHeader(version, { success, transaction, network, payer: row.payer, ...(errorReason && { errorReason }) }),
    authorization: {
      authKey,
      status: success ? 'settled' : 'settle_failed',
      settleAttempts: row.settle_attempts + 1,
      facilitatorJson: JSON.stringify(result),
    },
    ...(success ? {} : { failed: errorReason ?? 'unknown' }),
  };
}

export const authorizationFields = (a: AuthorizationCharge) => ({
  status: a.status,
  settle_attempts: a.settleAttempts,
  facilitator_json: a.facilitatorJson,
});

/** Settles authorizations queued by PAYMENT_SETTLE=async, retried every run until their validBefore. */
export async function settlePending({ repo, facilitator, clock }: Pick<GateDeps, 'repo' | 'facilitator' | 'clock'>): Promise<void> {
  if (!facilitator) return;
  const nowS = unixSeconds(clock);
  await repo.expirePending(nowS);
  for (const row of await repo.pendingSettlement(nowS)) {
    const result = await facilitator.settle(JSON.parse(row.payload_json) as StoredPayload, JSON.parse(row.requirements_json));
    await repo.update(row.auth_key, {
      status: result.success ? 'settled' : 'pending',
      settle_attempts: row.settle_attempts + 1,
      facilitator_json: JSON.stringify(result),
    });
  }
}
