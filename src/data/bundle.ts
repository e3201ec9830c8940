import { ApiError } from '../core/errors.js';
import Type from 'typebox';
import type { SourceFailure, SourceResult, SourceRunner } from '../sources/runner.js';
import { FREE_BUNDLE_QUERIES } from '../payments/pricing.js';

export interface BundleQuery {
  type: string;
  q?: string;
  entity?: string;
}

export interface ResolvedQuery {
  type: string;
  q: string;
}

/**
 * One query's answer. Every result carries `data` (an object), as the spec's Result row says; a failure's `data`
 * holds `{error, message, attempts, retry_after_s?}`, and `error` and `message` stay at the top level for clients
 * that read them there.
 */
export type BundleResult =
  | { type: string; q: string; ok: true; data: Record<string, unknown> }
  | { type: string; q: string; ok: false; error: string; message: string; data: Record<string, unknown> };

export const BundleResultSchema = Type.Object(
  {
    type: Type.String(),
    q: Type.String(),
    ok: Type.Boolean(),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'ok:true: `{count, results[], source, as_of, fetched_at, cached}`; ok:false: `{error, message, details?, attempts[{source, error}], retry_after_s?}` ' +
          '(error `unknown_symbol` when every upstream refused q as naming nothing, with `details.suggestions`)',
      },
    ),
    error: Type.Optional(Type.String({ description: 'ok:false only: the same as data.error' })),
    message: Type.Optional(Type.String({ description: 'ok:false only: the same as data.message' })),
  },
  { title: 'BundleResult', additionalProperties: false },
);

/**
 * Validates every query before anything runs (or is paid for): an unknown type or a malformed q is a
 * 400 naming `queries[i]`, so a paid bundle never charges for a query that could not run.
 */
export async function resolveQueries(
  runner: SourceRunner,
  queries: BundleQuery[],
  entityToQ: (type: string, entity: string, q: string | undefined) => Promise<string>,
  free: boolean,
): Promise<ResolvedQuery[]> {
  if (free && queries.length > FREE_BUNDLE_QUERIES) {
    throw new ApiError('limit_exceeded', `a free bundle holds at most ${FREE_BUNDLE_QUERIES} queries`, { field: 'queries', limit: FREE_BUNDLE_QUERIES, got: queries.length });
  }
  return Promise.all(
    queries.map(async (query, i) => {
      try {
        const q = query.entity !== undefined ? await entityToQ(query.type, query.entity, query.q) : query.q;
        return { type: query.type, q: runner.prepare(query.type, q).key };
      } catch (e) {
        if (e instanceof ApiError) throw new ApiError(e.code, `queries[${i}]: ${e.message}`, { ...e.details, index: i });
        throw e;
      }
    }),
  );
}

const toResult = (result: SourceResult, rowLimit: number): BundleResult =>
  result.ok
    ? {
        type: result.type,
        q: result.q,
        ok: true,
        data: {
          count: Math.min(result.rows.length, rowLimit),
          results: result.rows.slice(0, rowLimit),
          source: result.source,
          as_of: result.as_of,
          fetched_at: result.fetched_at,
          cached: result.cached,
          ...(result.skipped_items ? { skipped_items: result.skipped_items } : {}),
          ...(result.source_mode ? { source_mode: result.source_mode } : {}),
        },
      }
    : { type: result.type, q: result.q, ok: false, error: result.error, message: result.message, data: failureData(result) };

const failureData = ({ error, message, details, attempts, retry_after_s }: SourceFailure) => ({
  error,
  message,
  ...(details ? { details } : {}),
  attempts,
  ...(retry_after_s !== undefined ? { retry_after_s } : {}),
});

/** Runs all queries in parallel, each inside its own type's deadline: a bundle takes as long as its slowest query. */
export async function runBundle(runner: SourceRunner, queries: ResolvedQuery[], free: boolean): Promise<BundleResult[]> {
  const rowLimit = free ? 1 : Infinity;
  return Promise.all(queries.map(async (q) => toResult(await runner.run(q.type, q.q), rowLimit)));
}
