import type { Kysely } from 'kysely';
import type { AuthorizationStatus, DB, PassesTable, PaymentAuthorizationsTable } from '../schema.js';

export type AuthorizationRow = PaymentAuthorizationsTable;

export class PaymentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Claims an authorization atomically; false when it was already claimed (on any instance). */
  async reserve(row: AuthorizationRow): Promise<boolean> {
    const result = await this.db
      .insertInto('payment_authorizations')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  find(authKey: string): Promise<AuthorizationRow | undefined> {
    return this.db.selectFrom('payment_authorizations').selectAll().where('auth_key', '=', authKey).executeTakeFirst();
  }

  /** Forgets a claim whose answer failed, so the payer may use the authorization again. */
  async release(authKey: string): Promise<void> {
    await this.db.deleteFrom('payment_authorizations').where('auth_key', '=', authKey).where('status', '=', 'reserved').execute();
  }

  async update(authKey: string, fields: Partial<Pick<AuthorizationRow, 'status' | 'settle_attempts' | 'facilitator_json'>>): Promise<void> {
    await this.db.updateTable('payment_authorizations').set(fields).where('auth_key', '=', authKey).execute();
  }

  /** Authorizations waiting for asynchronous settlement that can still settle. */
  pendingSettlement(nowS: number, limit = 50): Promise<AuthorizationRow[]> {
    return this.db
      .selectFrom('payment_authorizations')
      .selectAll()
      .where('status', '=', 'pending' satisfies AuthorizationStatus)
      .where('valid_before', '>', nowS)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Pending authorizations whose window closed are failed for good. */
  async expirePending(nowS: number): Promise<void> {
    await this.db
      .updateTable('payment_authorizations')
      .set({ status: 'settle_failed' })
      .where('status', '=', 'pending')
      .where('valid_before', '<=', nowS)
      .execute();
  }

  async savePass(pass: PassesTable): Promise<void> {
    await this.db
      .insertInto('passes')
      .values(pass)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  findPass(tokenHash: string): Promise<PassesTable | undefined> {
    return this.db.selectFrom('passes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Records a checkout session as redeemed; false when it already was. */
  async redeemCheckout(sessionId: string, passTokenHash: string, nowMs: number): Promise<boolean> {
    const result = await this.db
      .insertInto('checkout_redemptions')
      .values({ session_id: sessionId, pass_token_hash: passTokenHash, created_at: nowMs })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
