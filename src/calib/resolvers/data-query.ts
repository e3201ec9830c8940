import Type from 'typebox';
import { ApiError } from '../../core/errors.js';
import type { Registry } from '../../sources/registry.js';
import type { Row, SourceDescriptor } from '../../sources/define.js';
import { resolveQ } from '../../sources/vocabulary.js';
import type { SourceRunner, SourceSuccess } from '../../sources/runner.js';

/** Resolvers read data at most this old: a resolution reflects the data at its due time. */
const MAX_AGE_S = 120;

/** The `{type, q}` a data-reading resolver fetches, checked like any data request. */
export const DataQuery = {
  type: Type.String({ minLength: 1, maxLength: 64, description: 'a catalog data type' }),
  q: Type.String({ maxLength: 500, description: "the type's q" }),
};

/** A 400 naming the config field when the type is unknown, not among `allowed`, or q does not parse for it. */
export function checkDataQuery(
  config: { type: string; q: string },
  registry: Registry,
  allowed: (categories: readonly string[]) => boolean = () => true,
): void {
  const descriptor = registry.get(config.type);
  if (!descriptor || !allowed(descriptor.categories)) {
    throw new ApiError('validation_failed', `outcome_resolver.config.type: ${config.type} is not a data type this resolver reads`, {
      field: 'outcome_resolver.config.type',
    });
  }
  resolvesAs(descriptor, config.q, 'outcome_resolver.config.q');
}

/** The canonical q (the type's one vocabulary: `BTC` → `bitcoin`), or a 400 naming the config field. */
export function resolvesAs(descriptor: SourceDescriptor, q: string, field: string): string {
  try {
    return resolveQ(descriptor, q).key;
  } catch (error) {
    throw new ApiError('validation_failed', `${field}: ${(error as Error).message}`, { field });
  }
}

/** A coin in any form crypto-price takes (CoinGecko id, symbol, entity id), for resolvers that read one coin. */
export const CoinQ = Type.String({
  pattern: '^(svc-ent:[a-z]+\\.[a-z0-9-]+|[A-Za-z0-9][A-Za-z0-9-]{0,63})$',
  description: 'a coin as crypto-price takes it: a CoinGecko id (bitcoin), a symbol (BTC) or an entity id (svc-ent:cr.bitcoin)',
});

/** The CoinGecko id of a coin in any crypto-price form; a 400 naming `field` when it is none. */
export const coinIdOf = (registry: Registry, coin: string, field: string): string => resolvesAs(registry.get('crypto-price')!, coin, field);

/** The rows of a fresh fetch, or undefined when the data type failed (the resolver will try again). */
export async function fetchRows(runner: SourceRunner, type: string, q: string): Promise<SourceSuccess | undefined> {
  const result = await runner.run(type, q, { maxAgeS: MAX_AGE_S });
  return result.ok ? result : undefined;
}

/** A finite number from a row field (numbers, or numeric text such as "67187.34"); undefined otherwise. */
export function numberIn(row: Row | undefined, field: string): number | undefined {
  const raw = row?.[field];
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(value) ? value : undefined;
}
