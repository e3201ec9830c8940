import { CORROBORATION_REF } from './openapi-corroboration.js';
import type { Fixture } from '../upstream/fixtures.js';

/**
 * One OpenAPI schema per data type's row, inferred from the rows its normalizer produced for the
 * recorded fixtures (the contract suite checks replay gives exactly those rows, and the demo serves
 * them), so the documented shape is what the code emits. Units come from the field-name suffixes
 * the normalizers use (`price_usd`, `temp_c`, `change_24h_pct`).
 */
export type JsonSchema = Record<string, unknown>;

const UNITS: Record<string, string> = {
  usd: 'US dollars',
  pct: 'percent',
  bps: 'basis points',
  ms: 'milliseconds',
  s: 'seconds',
  c: 'degrees Celsius',
  kmh: 'km/h',
  m: 'metres',
  km: 'kilometres',
  deg: 'degrees',
  gwei: 'gwei',
  ugm3: 'µg/m³',
  mw: 'megawatts',
  mwh: 'megawatt-hours',
  bbl: 'per barrel',
  oz: 'per troy ounce',
  mt: 'per metric tonne',
  '24h': 'over 24 hours',
  '1h': 'over 1 hour',
  '7d': 'over 7 days',
};

const FIXED: Record<string, string> = {
  source: 'the upstream that answered (or `curated`)',
  as_of: 'Unix seconds of the data',
};

/** The freshness fields svc stamps on every row of every type (src/sources/freshness.ts), documented on every row schema. */
export const FRESHNESS_PROPERTIES: Record<string, JsonSchema> = {
  as_of: {
    type: 'integer',
    description:
      "Unix seconds: the upstream's own observation time where it gives one, else when svc fetched the value (as_of_kind says which)",
  },
  as_of_kind: {
    type: 'string',
    enum: ['source', 'fetched'],
    description: 'source: as_of is the upstream’s observation time; fetched: svc’s fetch time',
  },
  age_s: { type: 'integer', minimum: 0, description: 'seconds from as_of to the moment of this answer' },
  stale: {
    type: 'boolean',
    description:
      "true exactly when the value is served past its type's TTL (a fallback while the upstream fails, an open circuit, the time machine)",
  },
  next_update_at: {
    type: 'integer',
    description: 'Unix seconds of the upstream’s next scheduled publication, where it publishes on a known schedule',
  },
};

/** `change_24h_pct` → "percent, over 24 hours"; `published_at` (integer) → Unix seconds. */
export function unitsOf(field: string, sample: unknown): string | undefined {
  if (FIXED[field]) return FIXED[field];
  const tokens = field.split('_').slice(1);
  if (tokens.at(-1) === 'at' && Number.isInteger(sample)) return 'Unix seconds';
  const units = tokens.map((t) => UNITS[t]).filter(Boolean);
  // "US dollars" + "per barrel" reads as one unit; other qualifiers are listed.
  return units.length ? [...new Set(units)].join(', ').replace(/, per /g, ' per ') : undefined;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The narrowest OpenAPI 3.0 schema every sample fits. */
export function inferSchema(samples: unknown[]): JsonSchema {
  const present = samples.filter((v) => v !== null && v !== undefined);
  const nullable = present.length < samples.filter((v) => v !== undefined).length ? { nullable: true } : {};
  const types = new Set(present.map(jsonType));
  if (types.size !== 1)
    return { ...nullable, description: types.size ? `one of: ${[...types].join(', ')}` : 'always null in recorded data' };
  const [type] = types;
  if (type === 'array') return { type, items: inferSchema((present as unknown[][]).flat()), ...nullable };
  if (type === 'object') return { ...objectSchema(present as Record<string, unknown>[]), ...nullable };
  if (type === 'number') return { type: present.every(Number.isInteger) ? 'integer' : 'number', ...nullable };
  return { type, ...nullable };
}

function objectSchema(rows: Record<string, unknown>[]): JsonSchema {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const properties = Object.fromEntries(
    fields.map((f) => {
      const values = rows.map((r) => r[f]);
      const unit = unitsOf(
        f,
        values.find((v) => v !== null && v !== undefined),
      );
      return [f, { ...inferSchema(values), ...(unit ? { description: unit } : {}) }];
    }),
  );
  const required = fields.filter((f) => rows.every((r) => f in r));
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: true };
}

/** `crypto-price` → `CryptoPriceRow`. */
export const rowComponentName = (type: string) => `${type.replace(/(^|-)([a-z0-9])/g, (_, _d, c: string) => c.toUpperCase())}Row`;

/** Components for every type that has recorded rows, each with a recorded row as its example. */
export function rowComponents(fixtures: Fixture[], types: string[]): Record<string, JsonSchema> {
  const known = new Set(types);
  const byType = new Map<string, Record<string, unknown>[]>();
  for (const f of fixtures) {
    if (!known.has(f.type) || !Array.isArray(f.expected)) continue;
    const further = (f.further_fallbacks ?? []).flatMap((fallback) => fallback.expected);
    const rows = [...f.expected, ...(f.fallback?.expected ?? []), ...further, ...(f.offline_expected ?? [])];
    byType.set(f.type, [...(byType.get(f.type) ?? []), ...rows]);
  }
  return Object.fromEntries(
    types
      .filter((t) => byType.get(t)?.length)
      .map((t) => {
        const rows = byType.get(t)!;
        // The integer/number distinction of one sample set is an accident of the data, not a contract.
        const schema = widenIntegers(objectSchema(rows), ['as_of']);
        const inferred = schema.properties as JsonSchema;
        const corroborated = 'corroboration' in inferred ? { corroboration: CORROBORATION_REF } : {};
        const properties = { ...inferred, ...FRESHNESS_PROPERTIES, ...corroborated };
        const description = `A normalized \`${t}\` row; every row also carries the freshness fields as_of, as_of_kind, age_s, stale and, where known, next_update_at`;
        return [rowComponentName(t), { ...schema, properties, description, example: rows[0] }];
      }),
  );
}

/** Numbers observed as whole values may be fractional next time; only time fields stay integers. */
function widenIntegers(schema: JsonSchema, keep: string[]): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  const widened = Object.fromEntries(
    Object.entries(properties).map(([k, p]) => {
      const isTime = keep.includes(k) || /_(at|ts)$/.test(k) || p.description === 'Unix seconds';
      if (p.type === 'integer' && !isTime && !/(^|_)(count|rank|n|id|block|number)$/.test(k)) return [k, { ...p, type: 'number' }];
      if (p.type === 'object') return [k, widenIntegers(p, keep)];
      return [k, p];
    }),
  );
  return { ...schema, properties: widened };
}
