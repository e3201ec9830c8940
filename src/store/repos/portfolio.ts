import type { Kysely } from 'kysely';
import type { DB, PortfolioUsersTable } from '../schema.js';

export type PortfolioUserRow = PortfolioUsersTable;

export class PortfolioRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Creates the user; false when the id is taken (the atomic claim of a new user id). */
  async create(row: PortfolioUserRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('portfolio_users')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  user(userId: string): Promise<PortfolioUserRow | undefined> {
    return this.db.selectFrom('portfolio_users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async setPlaidItem(userId: string, itemId: string, tokenEnc: string): Promise<void> {
    await this.db
      .updateTable('portfolio_users')
      .set({ plaid_item_id: itemId, plaid_token_enc: tokenEnc })
      .where('user_id', '=', userId)
      .execute();
  }

  async addSnapshot(userId: string, takenAt: number, snapshot: unknown): Promise<void> {
    await this.db
      .insertInto('portfolio_snapshots')
      .values({ user_id: userId, taken_at: takenAt, snapshot_json: JSON.stringify(snapshot) })
      .onConflict((oc) => oc.columns(['user_id', 'taken_at']).doUpdateSet({ snapshot_json: JSON.stringify(snapshot) }))
      .execute();
  }

  async latestSnapshot<T>(userId: string): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('portfolio_snapshots')
      .select('snapshot_json')
      .where('user_id', '=', userId)
      .orderBy('taken_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? (JSON.parse(row.snapshot_json) as T) : undefined;
  }

  /** Removes the user and every snapshot, in one transaction. */
  async delete(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('portfolio_snapshots').where('user_id', '=', userId).execute();
      await trx.deleteFrom('portfolio_users').where('user_id', '=', userId).execute();
    });
  }

  /** Row counts a user leaves behind (tests check that deletion leaves none). */
  async footprint(userId: string): Promise<number> {
    const count = async (table: 'portfolio_users' | 'portfolio_snapshots') =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirst()
        )?.n ?? 0,
      );
    return (await count('portfolio_users')) + (await count('portfolio_snapshots'));
  }
}
