import type { Kysely } from 'kysely';
import type { AgentCredentialsTable, DB } from '../schema.js';

export type CredentialRow = AgentCredentialsTable;

/** Agent credentials and the replay guard of signed requests. */
export class AgentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  credential(agentId: string): Promise<CredentialRow | undefined> {
    return this.db.selectFrom('agent_credentials').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
  }

  /** False when the agent already exists (a concurrent first write won): the unique insert is the claim on the id. */
  async create(row: CredentialRow): Promise<boolean> {
    const result = await this.db
      .insertInto('agent_credentials')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Replaces the key only if it is still the one the caller proved: of two concurrent rotations one wins. */
  async rotateKey(agentId: string, currentHash: string, nextHash: string, nowMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('agent_credentials')
      .set({ key_hash: nextHash, rotated_at: nowMs })
      .where('agent_id', '=', agentId)
      .where('key_hash', '=', currentHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setPublicJwk(agentId: string, jwkJson: string | null): Promise<void> {
    await this.db.updateTable('agent_credentials').set({ public_jwk: jwkJson }).where('agent_id', '=', agentId).execute();
  }

  /** False when this signature was already used. */
  async useSignature(sigHash: string, agentId: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .insertInto('agent_signatures_used')
      .values({ sig_hash: sigHash, agent_id: agentId, expires_at: expiresAt })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async purgeSignatures(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('agent_signatures_used').where('expires_at', '<', nowMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
