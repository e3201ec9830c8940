import type { Kysely } from 'kysely';
import type { DB, ShieldManifestAuditsTable } from '../schema.js';

export type ManifestAuditRow = ShieldManifestAuditsTable;

export class ShieldRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The latest audit of a URL, if any. */
  latest(url: string): Promise<ManifestAuditRow | undefined> {
    return this.db
      .selectFrom('shield_manifest_audits')
      .selectAll()
      .where('url', '=', url)
      .orderBy('audited_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Records an audit; a second audit of the same URL in the same millisecond keeps the first. */
  async record(row: ManifestAuditRow): Promise<void> {
    await this.db
      .insertInto('shield_manifest_audits')
      .values(row)
      .onConflict((oc) => oc.columns(['url', 'audited_at']).doNothing())
      .execute();
  }
}
