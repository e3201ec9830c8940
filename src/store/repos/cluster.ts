import type { Kysely, Selectable } from 'kysely';
import type { DB, InstancesTable, SigningKeysTable } from '../schema.js';

export type SigningKeyRecord = Selectable<SigningKeysTable>;
export type InstanceRecord = Selectable<InstancesTable>;
export type InstanceStart = Omit<InstanceRecord, 'heartbeat_at' | 'beats'>;

/** Rows of instances that stopped beating this long ago are deleted (they stay visible for a day to the doctor). */
const FORGET_AFTER_MS = 24 * 3_600_000;

/** The cluster's signing-key record and its instances' heartbeats. */
export class ClusterRepo {
  constructor(private readonly db: Kysely<DB>) {}

  currentKey(): Promise<SigningKeyRecord | undefined> {
    return this.db.selectFrom('signing_keys').selectAll().where('current', '=', 1).executeTakeFirst();
  }

  key(kid: string): Promise<SigningKeyRecord | undefined> {
    return this.db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
  }

  /** Makes `kid` the cluster's key when it has none yet; false when another instance registered first. */
  async register(kid: string, spki: string, nowMs: number): Promise<boolean> {
    const result = await this.db
      .insertInto('signing_keys')
      .values({ kid, spki, registered_at: nowMs, retired_at: null, current: 1 })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Retires `from` and makes `to` current, only if `from` is still current (another instance may have rotated first). */
  rotate(from: string, to: { kid: string; spki: string }, nowMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const retired = await tx
        .updateTable('signing_keys')
        .set({ retired_at: nowMs, current: null })
        .where('kid', '=', from)
        .where('current', '=', 1)
        .executeTakeFirst();
      if (Number(retired.numUpdatedRows) !== 1) return false;
      await tx
        .insertInto('signing_keys')
        .values({ ...to, registered_at: nowMs, retired_at: null, current: 1 })
        .onConflict((oc) => oc.column('kid').doUpdateSet({ retired_at: null, current: 1 }))
        .execute();
      return true;
    });
  }

  /** Records a heartbeat (the first one inserts the row) and forgets instances silent for a day. */
  async beat(instance: InstanceStart, nowMs: number): Promise<void> {
    await this.db
      .insertInto('instances')
      .values({ ...instance, heartbeat_at: nowMs, beats: 1 })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ heartbeat_at: nowMs, beats: eb('instances.beats', '+', 1) })))
      .execute();
    await this.db
      .deleteFrom('instances')
      .where('heartbeat_at', '<', nowMs - FORGET_AFTER_MS)
      .execute();
  }

  /** Instances whose last heartbeat is at or after `sinceMs`, oldest start first. */
  beatingSince(sinceMs: number): Promise<InstanceRecord[]> {
    return this.db.selectFrom('instances').selectAll().where('heartbeat_at', '>=', sinceMs).orderBy('started_at').execute();
  }

  async leave(id: string): Promise<void> {
    await this.db.deleteFrom('instances').where('id', '=', id).execute();
  }
}
