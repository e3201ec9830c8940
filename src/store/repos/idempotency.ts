import type { Kysely } from 'kysely';
import type { AuthorizationStatus, DB, IdempotentRequestsTable } from '../schema.js';

export type IdempotentRow = IdempotentRequestsTable;

/**
 * What a paid request was answered with, kept byte for byte (after signing) so that a retry of the same request
 * gets the very answer that was paid for: the same rows, `_receipt` and `as_of`.
 */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A charge as the idempotent request records it: who paid, how much, and the settlement headers to send again. */
export interface Charge {
  method: string;
  ref: string;
  amount: string;
  settleHeaders: Record<string, string>;
}

/** The x402 authorization's own record of the same charge, written in the same transaction. */
export interface AuthorizationCharge {
  authKey: string;
  status: AuthorizationStatus;
  settleAttempts: number;
  facilitatorJson: string | null;
}

/**
 * Idempotent paid requests (migration 021). Every write that belongs to one run names its owner, so a run that lost
 * its lease (taken over after its lease ended) can neither store an answer nor release the row.
 */
export class IdempotencyRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Claims the key for a run; false when another run (on any instance) holds it or held it. */
  async claim(row: IdempotentRow): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotent_requests')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  find(key: string): Promise<IdempotentRow | undefined> {
    return this.db.selectFrom('idempotent_requests').selectAll().where('key', '=', key).executeTakeFirst();
  }

  /** Takes over a running request whose lease ended (its run died): true for exactly one of several runs trying. */
  async takeOver(key: string, from: { owner: string; leaseUntil: number }, owner: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotent_requests')
      .set({ owner, lease_until: leaseUntil })
      .where('key', '=', key)
      .where('state', '=', 'running')
      .where('owner', '=', from.owner)
      .where('lease_until', '=', from.leaseUntil)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records the charge once, with the authorization's settlement status in the same transaction, so a run that
   * takes the request over after a crash finds both or neither. False when this run no longer owns the request.
   */
  async recordCharge(key: string, owner: string, nowMs: number, charge: Charge, authorization?: AuthorizationCharge): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const recorded = await tx
        .updateTable('idempotent_requests')
        .set({
          charge_method: charge.method,
          charge_ref: charge.ref,
          charge_amount: charge.amount,
          charged_at: nowMs,
          settle_headers_json: JSON.stringify(charge.settleHeaders),
        })
        .where('key', '=', key)
        .where('owner', '=', owner)
        .where('charged_at', 'is', null)
        .executeTakeFirst();
      if (Number(recorded.numUpdatedRows) !== 1) return false;
      if (authorization)
        await tx
          .updateTable('payment_authorizations')
          .set({
            status: authorization.status,
            settle_attempts: authorization.settleAttempts,
            facilitator_json: authorization.facilitatorJson,
          })
          .where('auth_key', '=', authorization.authKey)
          .execute();
      return true;
    });
  }

  /** Keeps the answer and marks the request done; false when this run no longer owns it. */
  async complete(key: string, owner: string, answer: StoredAnswer): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotent_requests')
      .set({ state: 'done', response_json: JSON.stringify(answer) })
      .where('key', '=', key)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Forgets a request that was not answered (or charged nothing), so a retry runs it again. */
  async release(key: string, owner: string): Promise<void> {
    await this.db.deleteFrom('idempotent_requests').where('key', '=', key).where('owner', '=', owner).execute();
  }

  /** Forgets a key whose 24 hours are over, so it may be used again (only the row seen expired: `owner` guards it). */
  async forgetExpired(key: string, owner: string, nowMs: number): Promise<void> {
    await this.db
      .deleteFrom('idempotent_requests')
      .where('key', '=', key)
      .where('owner', '=', owner)
      .where('expires_at', '<=', nowMs)
      .execute();
  }

  /** Deletes every expired row (a background job keeps the table to the last 24 hours). */
  async purgeExpired(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotent_requests').where('expires_at', '<=', nowMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The x402 amounts (USDC atomic units, as text) one caller was charged since `sinceMs`. */
  async x402ChargesSince(caller: string, sinceMs: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('idempotent_requests')
      .select('charge_amount')
      .where('caller', '=', caller)
      .where('charge_method', '=', 'x402')
      .where('charged_at', '>=', sinceMs)
      .execute();
    return rows.map((r) => r.charge_amount!);
  }
}
