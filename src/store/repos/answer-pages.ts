import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import type { AnswerPagesTable } from '../schema-answers.js';

export type AnswerPageRow = AnswerPagesTable;

const SAVE_CHUNK = 500;

/** The stored pages of paged answers (migration 024): written once per answer, read by page, purged past expiry. */
export class AnswerPagesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** One transaction, in chunks that keep under either engine's bound on the parameters of one statement. */
  async save(rows: AnswerPageRow[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (let at = 0; at < rows.length; at += SAVE_CHUNK)
        await tx
          .insertInto('answer_pages')
          .values(rows.slice(at, at + SAVE_CHUNK))
          .execute();
    });
  }

  /** The page, while it has not expired. */
  find(answerId: string, page: number, nowMs: number): Promise<AnswerPageRow | undefined> {
    return this.db
      .selectFrom('answer_pages')
      .selectAll()
      .where('answer_id', '=', answerId)
      .where('page', '=', page)
      .where('expires_at', '>', nowMs)
      .executeTakeFirst();
  }

  async purgeExpired(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('answer_pages').where('expires_at', '<=', nowMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
