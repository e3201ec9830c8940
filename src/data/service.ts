import { ApiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { CursorCodec } from '../core/cursor.js';
import type { Row, SourceDescriptor } from '../sources/define.js';
import { isStale, servedRows } from '../sources/freshness.js';
import type { SourceRunner } from '../sources/runner.js';
import type { SourceHistoryRepo } from '../store/repos/source-history.js';
import { diffRows } from './diff.js';
import type { Keepable } from './hot-answers.js';
import { parseUnixSeconds } from '../core/clock.js';

export const PREVIEW_CURSOR = 'svc-cur:';
/** The time machine reaches this far back; older history is pruned. */
export const HISTORY_WINDOW_S = 3600;

interface CursorPayload {
  /** type, canonical q, rows hash of the version the client holds */
  t: string;
  k: string;
  h: string;
}

export interface PreviewInput {
  type: string;
  q?: string;
  since?: string;
  asOf?: number;
  maxAgeS?: number;
}

export type PreviewBody = Record<string, unknown> & { ok: boolean };

/** `as_of` may be Unix seconds or ISO 8601; either way it must fall in the last 60 minutes. */
export function parseAsOf(value: string, nowS: number): number {
  const seconds = /^\d+$/.test(value) ? Number(value) : parseUnixSeconds(value);
  if (!Number.isFinite(seconds)) {
    throw new ApiError('validation_failed', 'as_of must be Unix seconds or an ISO 8601 time', { field: 'as_of', rule: 'format' });
  }
  if (seconds > nowS || seconds < nowS - HISTORY_WINDOW_S) {
    throw new ApiError('validation_failed', `as_of must be within the last ${HISTORY_WINDOW_S / 60} minutes`, {
      field: 'as_of',
      rule: 'range',
      min: nowS - HISTORY_WINDOW_S,
      max: nowS,
    });
  }
  return seconds;
}

/** The free one-row preview, with cursors (`since`) and the 60-minute time machine (`as_of`). */
export class PreviewService {
  private readonly issuedCursors = new Map<string, string>();

  constructor(
    private readonly runner: SourceRunner,
    private readonly history: SourceHistoryRepo,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  /**
   * The preview plus, for a plain one (no since/as_of/max_age) answered from a fresh cached value that no
   * store replaced meanwhile, what HotAnswers needs to keep its signed bytes.
   */
  async answer(input: PreviewInput): Promise<{ body: PreviewBody; keepable?: Keepable }> {
    if (input.since !== undefined || input.asOf !== undefined || input.maxAgeS !== undefined) return { body: await this.preview(input) };
    const { descriptor, key } = this.runner.prepare(input.type, input.q);
    const cacheKey = this.runner.cacheKeyOf(descriptor.type, key);
    const generation = this.runner.generationOf(cacheKey);
    const body = await this.preview(input);
    // Rows say their age in whole seconds, so the signed bytes are good until the second changes (or the TTL ends).
    const nextSecond = (Math.floor(this.clock.now() / 1000) + 1) * 1000;
    const valueFreshUntil = Number(body.fetched_at) + descriptor.ttlSeconds * 1000;
    const freshUntil = Math.min(valueFreshUntil, nextSecond);
    const unchanged = this.runner.generationOf(cacheKey) === generation;
    const keep = body.ok && body.cached === true && freshUntil > this.clock.now() && unchanged;
    return { body, ...(keep ? { keepable: { cacheKey, generation, freshUntil, valueFreshUntil } } : {}) };
  }

  async preview(input: PreviewInput): Promise<PreviewBody> {
    const { descriptor, key } = this.runner.prepare(input.type, input.q);
    const held = input.since === undefined ? undefined : this.decodeFor(input.since, descriptor.type, key);
    if (input.asOf !== undefined) return this.fromHistory(descriptor, key, input.asOf);

    const result = await this.runner.run(descriptor.type, key, { maxAgeS: input.maxAgeS });
    if (!result.ok && result.error === 'unknown_symbol') throw new ApiError('unknown_symbol', result.message, result.details);
    if (!result.ok) return { ...result };
    const cursor = this.cursor(result.type, key, result.rows_hash);
    if (held && held.h === result.rows_hash) return { ok: true, changed: false, _cursor: cursor };

    const { rows, rows_hash, ...meta } = result;
    const body: PreviewBody = { ...meta, preview: rows[0], row_count: rows.length, _cursor: cursor };
    if (held) Object.assign(body, { changed: true, ...(await this.diffAgainst(held, rows)) });
    return body;
  }

  private decodeFor(since: string, type: string, key: string): CursorPayload {
    const held = this.cursors.decode<CursorPayload>(PREVIEW_CURSOR, since);
    if (held.t !== type || held.k !== key) {
      throw new ApiError('invalid_cursor', 'this cursor belongs to another type or q', { field: 'since' });
    }
    return held;
  }

  /** Cursors are deterministic per (type, q, version); hot previews reuse them instead of re-MACing. */
  private cursor(type: string, key: string, rowsHash: string): string {
    const memoKey = `${type}\n${key}\n${rowsHash}`;
    let cursor = this.issuedCursors.get(memoKey);
    if (!cursor) {
      cursor = this.cursors.encode(PREVIEW_CURSOR, { t: type, k: key, h: rowsHash } satisfies CursorPayload);
      if (this.issuedCursors.size >= 10_000) this.issuedCursors.clear();
      this.issuedCursors.set(memoKey, cursor);
    }
    return cursor;
  }

  private async diffAgainst(held: CursorPayload, rows: Row[]) {
    const base = await this.history.byHash(held.t, held.k, held.h);
    if (!base) return { diff: diffRows([], rows), diff_base: 'expired' as const };
    return { diff: diffRows(JSON.parse(base.rows_json) as Row[], rows), diff_base: 'cursor' as const };
  }

  private async fromHistory({ type, ttlSeconds }: SourceDescriptor, key: string, asOfS: number): Promise<PreviewBody> {
    const entry = await this.history.at(type, key, asOfS * 1000 + 999);
    if (!entry || entry.fetched_at < this.clock.now() - HISTORY_WINDOW_S * 1000) {
      throw new ApiError('no_history', `no ${type} value for this q was recorded at or before ${asOfS}`, { field: 'as_of' });
    }
    const served = { fetchedAtMs: entry.fetched_at, ttlSeconds, nowMs: this.clock.now() };
    const rows = servedRows(JSON.parse(entry.rows_json) as Row[], served);
    return {
      ok: true,
      type,
      q: key,
      source: entry.source,
      as_of: entry.as_of,
      fetched_at: entry.fetched_at,
      cached: true,
      stale: isStale(served),
      from_history: true,
      preview: rows[0],
      row_count: rows.length,
      _cursor: this.cursor(type, key, entry.rows_hash),
    };
  }
}
