import type { Kysely } from 'kysely';
import type { ApiKeysTable, DB } from '../schema.js';

export type ApiKeyRow = ApiKeysTable;

export class ApiKeysRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async create(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  /** The active key with this hash. */
  active(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
  }

  list(): Promise<Omit<ApiKeyRow, 'key_hash'>[]> {
    return this.db.selectFrom('api_keys').select(['id', 'name', 'tier', 'created_at', 'revoked_at']).orderBy('created_at').execute();
  }

  /** True when an active key was revoked. */
  async revoke(id: string, nowMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: nowMs })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countActive(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
