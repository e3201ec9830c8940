import { ApiError } from '../core/errors.js';
import type { Entity } from '../entities/dataset.js';
import { ENTITY_ID, entityById, suggestionsFor } from './lib/entities.js';
import type { SourceDescriptor } from './define.js';
import type { SourceFailure } from './result.js';
import { refusesQuery, type UpstreamError } from '../upstream/errors.js';

/**
 * One vocabulary per type: every endpoint that takes a type's q (preview, bundle, backtest, snapshot, stream filters,
 * MCP, agent-context, calibration resolvers) goes through `resolveQ`, so the same q works everywhere. An entity id
 * (`svc-ent:cr.bitcoin`) is q for every type that can use the entity; the rest is the type's own `parseQ`.
 */
export function resolveQ<Q>(descriptor: SourceDescriptor<Q>, rawQ: string): { parsed: Q; key: string } {
  const trimmed = rawQ.trim();
  const q = ENTITY_ID.test(trimmed) ? entityQ(descriptor, trimmed) : trimmed;
  const parsed = descriptor.parseQ(q);
  return { parsed, key: descriptor.keyOf ? descriptor.keyOf(parsed) : q };
}

/** The forms of q a type accepts, for the catalog: its own, then entity ids where it can use entities. */
export const qForms = (descriptor: SourceDescriptor): string[] => [
  ...(descriptor.qForms ?? [descriptor.qShape || '(empty)']),
  ...(descriptor.entityQ ? ['svc-ent:<class>.<slug> (an entity id; see /api/v1/entities)'] : []),
];

function entityQ<Q>(descriptor: SourceDescriptor<Q>, id: string): string {
  const entity = entityById(id);
  if (!entity) throw unknownSymbol(descriptor, id);
  const q = descriptor.entityQ?.(entity);
  if (!q) {
    throw new ApiError('entity_unsupported', `${id} cannot be used with ${descriptor.type}`, { field: 'q', q: id });
  }
  return q;
}

/**
 * A 404 for a well-formed q that names nothing the type's sources know (a caller's mistake, never an outage): names
 * `q` and suggests the nearest entities of the graph, written as this type's q.
 */
export function unknownSymbol(descriptor: Pick<SourceDescriptor, 'type' | 'entityQ' | 'instrumentOf'>, q: string): ApiError {
  const suggestions = suggestionsFor(descriptor.instrumentOf?.(q) ?? q, (e: Entity) => descriptor.entityQ?.(e));
  const hint = suggestions.length ? `; did you mean ${suggestions.map((s) => s.q).join(', ')}?` : '';
  return new ApiError('unknown_symbol', `${descriptor.type} knows no "${q}"${hint}`, { field: 'q', q, suggestions });
}

/** An instrument type whose every upstream refused q (unknown, or a 4xx about the request; a missing key has no say). */
export const refusedEverywhere = (descriptor: SourceDescriptor, errors: UpstreamError[]): boolean =>
  Boolean(descriptor.namesInstrument) &&
  errors.some(refusesQuery) &&
  errors.every((e) => refusesQuery(e) || e.reason === 'upstream_key_missing');

/** The failure of a q its upstreams do not know: `unknown_symbol`, which previews answer as a 404 and bundles as their row. */
export function unknownSymbolFailure(descriptor: SourceDescriptor, key: string, attempts: SourceFailure['attempts']): SourceFailure {
  const error = unknownSymbol(descriptor, key);
  return { ok: false, type: descriptor.type, q: key, error: 'unknown_symbol', message: error.message, details: error.details, attempts };
}
