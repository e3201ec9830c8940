import type { Kysely } from 'kysely';
import type { AgentSessionEventsTable, AgentSessionScreenshotsTable, AgentSessionsTable, DB } from '../schema.js';

export type SessionRow = AgentSessionsTable;
export type EventRow = AgentSessionEventsTable;
export type ScreenshotRow = AgentSessionScreenshotsTable;
export type NewEvent = Omit<EventRow, 'session_id' | 'seq'>;

export class AgentSessionsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async create(session: SessionRow): Promise<void> {
    await this.db.insertInto('agent_sessions').values(session).execute();
  }

  get(sessionId: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('agent_sessions').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
  }

  /**
   * Appends an event to a live session and pushes its expiry to now + ttl, in one transaction. The
   * sequence number comes from a conditional increment of the session row, so concurrent posts get
   * distinct, gap-free numbers and an event numbered n commits only after every event before it.
   * Undefined when the session is no longer live.
   */
  async append(sessionId: string, event: NewEvent, nowMs: number, screenshot?: ScreenshotRow): Promise<EventRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const bumped = await trx
        .updateTable('agent_sessions')
        .set((eb) => ({
          last_seq: eb('last_seq', '+', 1),
          expires_at: eb('ttl_ms', '+', nowMs),
          image_bytes: eb('image_bytes', '+', screenshot?.bytes ?? 0),
        }))
        .where('session_id', '=', sessionId)
        .where('status', '=', 'live')
        .returning('last_seq')
        .executeTakeFirst();
      if (!bumped) return undefined;
      if (screenshot)
        await trx
          .insertInto('agent_session_screenshots')
          .values(screenshot)
          .onConflict((oc) => oc.column('sha256').doNothing())
          .execute();
      const row = { session_id: sessionId, seq: Number(bumped.last_seq), ...event };
      await trx.insertInto('agent_session_events').values(row).execute();
      return row;
    });
  }

  /** Ends a live session (ended or expired) with a final `end` event; undefined when it was not live. */
  async finish(sessionId: string, status: 'ended' | 'expired', nowMs: number, deleteAt: number): Promise<EventRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const bumped = await trx
        .updateTable('agent_sessions')
        .set((eb) => ({ status, ended_at: nowMs, delete_at: deleteAt, last_seq: eb('last_seq', '+', 1) }))
        .where('session_id', '=', sessionId)
        .where('status', '=', 'live')
        .returning('last_seq')
        .executeTakeFirst();
      if (!bumped) return undefined;
      const row = { session_id: sessionId, seq: Number(bumped.last_seq), kind: 'end', text: status, screenshot_sha256: null, ts: nowMs };
      await trx.insertInto('agent_session_events').values(row).execute();
      return row;
    });
  }

  /** Events after `afterSeq` in sequence order, at most `limit`. */
  events(sessionId: string, afterSeq: number, limit: number): Promise<EventRow[]> {
    return this.db
      .selectFrom('agent_session_events')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** Ids of live sessions whose expiry has come. */
  async expiredLive(nowMs: number, limit = 500): Promise<string[]> {
    const rows = await this.db
      .selectFrom('agent_sessions')
      .select('session_id')
      .where('status', '=', 'live')
      .where('expires_at', '<=', nowMs)
      .limit(limit)
      .execute();
    return rows.map((r) => r.session_id);
  }

  /** Deletes sessions past their retention with their events, then screenshots no event refers to. */
  async deleteRetired(nowMs: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const retired = trx.selectFrom('agent_sessions').select('session_id').where('delete_at', '<=', nowMs);
      await trx.deleteFrom('agent_session_events').where('session_id', 'in', retired).execute();
      const deleted = await trx.deleteFrom('agent_sessions').where('delete_at', '<=', nowMs).executeTakeFirst();
      await trx
        .deleteFrom('agent_session_screenshots')
        .where(
          'sha256',
          'not in',
          trx
            .selectFrom('agent_session_events')
            .select('screenshot_sha256')
            .where('screenshot_sha256', 'is not', null)
            .$narrowType<{ screenshot_sha256: string }>(),
        )
        .execute();
      return Number(deleted.numDeletedRows);
    });
  }

  /** Bytes of every stored screenshot (the global budget). */
  async storedImageBytes(): Promise<number> {
    const row = await this.db
      .selectFrom('agent_session_screenshots')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  async hasScreenshot(sha256: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('agent_session_screenshots').select('sha256').where('sha256', '=', sha256).executeTakeFirst()) !== undefined
    );
  }

  /**
   * Stored screenshots no live session shows, those of the sessions that ended first first: what the
   * global budget evicts. An image shared with a live session is never among them.
   */
  async evictableImages(limit: number): Promise<{ sha256: string; bytes: number }[]> {
    const shownLive = this.db
      .selectFrom('agent_session_events as e')
      .innerJoin('agent_sessions as s', 's.session_id', 'e.session_id')
      .select('e.screenshot_sha256')
      .where('s.status', '=', 'live')
      .where('e.screenshot_sha256', 'is not', null)
      .$narrowType<{ screenshot_sha256: string }>();
    const rows = await this.db
      .selectFrom('agent_session_screenshots as img')
      .innerJoin('agent_session_events as e', 'e.screenshot_sha256', 'img.sha256')
      .innerJoin('agent_sessions as s', 's.session_id', 'e.session_id')
      .where('img.sha256', 'not in', shownLive)
      .select((eb) => ['img.sha256', 'img.bytes', eb.fn.max('s.ended_at').as('last_ended')])
      .groupBy(['img.sha256', 'img.bytes'])
      .orderBy('last_ended')
      .orderBy('img.sha256')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ sha256: row.sha256, bytes: Number(row.bytes) }));
  }

  async deleteImages(sha256s: readonly string[]): Promise<void> {
    if (sha256s.length > 0) await this.db.deleteFrom('agent_session_screenshots').where('sha256', 'in', sha256s).execute();
  }

  screenshot(sha256: string): Promise<ScreenshotRow | undefined> {
    return this.db.selectFrom('agent_session_screenshots').selectAll().where('sha256', '=', sha256).executeTakeFirst();
  }
}
