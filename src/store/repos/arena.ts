import type { Kysely } from 'kysely';
import type { ArenaTradesTable, DB } from '../schema.js';

export type TradeRow = ArenaTradesTable;

export class ArenaRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** True when this entry was new (entries are keyed by strategy, asset and entry time). */
  async insertEntry(row: TradeRow): Promise<boolean> {
    const result = await this.db
      .insertInto('arena_trades')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Records the exit of an open trade; false when it was already closed. */
  async close(
    strategy: string,
    asset: string,
    entryTs: number,
    exit: Pick<TradeRow, 'exit_ts' | 'exit_price' | 'exit_reason' | 'pnl_pct'>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('arena_trades')
      .set(exit)
      .where('strategy', '=', strategy)
      .where('asset', '=', asset)
      .where('entry_ts', '=', entryTs)
      .where('exit_ts', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  get(strategy: string, asset: string, entryTs: number): Promise<TradeRow | undefined> {
    return this.db
      .selectFrom('arena_trades')
      .selectAll()
      .where('strategy', '=', strategy)
      .where('asset', '=', asset)
      .where('entry_ts', '=', entryTs)
      .executeTakeFirst();
  }

  /** Every trade of one strategy on one asset, oldest first. */
  trades(strategy: string, asset: string): Promise<TradeRow[]> {
    return this.db
      .selectFrom('arena_trades')
      .selectAll()
      .where('strategy', '=', strategy)
      .where('asset', '=', asset)
      .orderBy('entry_ts')
      .execute();
  }

  /** Closed trades of these strategies that exited in (fromTs, toTs] (Unix ms; fromTs may be -Infinity). */
  closedTrades(strategies: readonly string[], fromTs: number, toTs: number): Promise<TradeRow[]> {
    return this.db
      .selectFrom('arena_trades')
      .selectAll()
      .where('strategy', 'in', [...strategies])
      .where('exit_ts', 'is not', null)
      .where('exit_ts', '<=', toTs)
      .$if(Number.isFinite(fromTs), (qb) => qb.where('exit_ts', '>', fromTs))
      .orderBy('exit_ts')
      .execute();
  }

  async saveAttestation(id: string, body: unknown, nowMs: number): Promise<void> {
    await this.db
      .insertInto('arena_attestations')
      .values({ id, body_json: JSON.stringify(body), created_at: nowMs })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async attestation(id: string): Promise<Record<string, unknown> | undefined> {
    const row = await this.db.selectFrom('arena_attestations').select('body_json').where('id', '=', id).executeTakeFirst();
    return row && (JSON.parse(row.body_json) as Record<string, unknown>);
  }
}
