import type { Kysely } from 'kysely';
import type { DB, Medal, OlympicsAnswersTable, OlympicsEventsTable, OlympicsMode } from '../schema.js';

export type EventRow = OlympicsEventsTable;
export type AnswerRow = OlympicsAnswersTable;

export interface EventFilter {
  status?: EventRow['status'];
  discipline?: string;
  mode?: OlympicsMode;
  /** Keyset: events strictly before this (opened_at, id), newest first. */
  before?: { opened_at: number; id: string };
  limit: number;
}

/** One scored answer of a resolved event, for standings. */
export type ScoredAnswer = Pick<AnswerRow, 'event_id' | 'model_id' | 'vendor' | 'model' | 'status' | 'p' | 'brier' | 'medal'> &
  Pick<EventRow, 'discipline'> & { outcome: 0 | 1 };

export class OlympicsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** True when the event is new: its id is derived from template and slot, so a second opener loses here. */
  async insertEvent(row: EventRow): Promise<boolean> {
    const result = await this.db
      .insertInto('olympics_events')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async insertAnswer(row: AnswerRow): Promise<void> {
    await this.db
      .insertInto('olympics_answers')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  event(id: string): Promise<EventRow | undefined> {
    return this.db.selectFrom('olympics_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  answers(eventIds: readonly string[]): Promise<AnswerRow[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('olympics_answers')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .orderBy('event_id')
      .orderBy('model_id')
      .execute();
  }

  events(filter: EventFilter): Promise<EventRow[]> {
    let query = this.db.selectFrom('olympics_events').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.discipline) query = query.where('discipline', '=', filter.discipline);
    if (filter.mode) query = query.where('mode', '=', filter.mode);
    const before = filter.before;
    if (before)
      query = query.where((eb) =>
        eb.or([eb('opened_at', '<', before.opened_at), eb.and([eb('opened_at', '=', before.opened_at), eb('id', '<', before.id)])]),
      );
    return query.orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  /** Open events whose outcome is due (resolves_at ≤ nowS), oldest first. */
  due(nowS: number): Promise<EventRow[]> {
    return this.db
      .selectFrom('olympics_events')
      .selectAll()
      .where('status', '=', 'open')
      .where('resolves_at', '<=', nowS)
      .orderBy('resolves_at')
      .limit(100)
      .execute();
  }

  /** Closes an open event once; false when another run already did. */
  async close(id: string, change: Pick<EventRow, 'status' | 'outcome' | 'evidence_json' | 'resolved_at'>): Promise<boolean> {
    const result = await this.db
      .updateTable('olympics_events')
      .set(change)
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async score(eventId: string, modelId: string, brier: number, medal: Medal | null): Promise<void> {
    await this.db
      .updateTable('olympics_answers')
      .set({ brier, medal })
      .where('event_id', '=', eventId)
      .where('model_id', '=', modelId)
      .execute();
  }

  /** Every answer to a resolved event of the mode (all modes when undefined). */
  async scored(mode: OlympicsMode | undefined): Promise<ScoredAnswer[]> {
    let query = this.db
      .selectFrom('olympics_answers as a')
      .innerJoin('olympics_events as e', 'e.id', 'a.event_id')
      .select(['a.event_id', 'a.model_id', 'a.vendor', 'a.model', 'a.status', 'a.p', 'a.brier', 'a.medal', 'e.discipline', 'e.outcome'])
      .where('e.status', '=', 'resolved');
    if (mode) query = query.where('e.mode', '=', mode);
    const rows = await query.execute();
    return rows.map((r) => ({ ...r, outcome: r.outcome === 1 ? 1 : 0 }));
  }
}
