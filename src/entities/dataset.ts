import Type from 'typebox';
import { curatedFile, Origin } from '../core/curated.js';

export const ENTITY_TYPES = ['equity', 'crypto', 'forex', 'commodity', 'index', 'stablecoin', 'perp'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/**
 * Class codes in ids (`svc-ent:<class>.<slug>`), stable once published: eq equity, cr crypto,
 * fx forex pair, cmd commodity, idx index, stb stablecoin, perp perpetual future.
 */
export const CLASS_CODES: Record<EntityType, string> = {
  equity: 'eq',
  crypto: 'cr',
  forex: 'fx',
  commodity: 'cmd',
  index: 'idx',
  stablecoin: 'stb',
  perp: 'perp',
};

export const EntitySchema = Type.Object(
  {
    id: Type.String({ pattern: '^svc-ent:(eq|cr|fx|cmd|idx|stb|perp)\\.[a-z0-9-]+$' }),
    name: Type.String({ minLength: 1 }),
    type: Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t))),
    category: Type.String(),
    aliases: Type.Array(Type.String()),
    ids: Type.Record(Type.String(), Type.String()),
    contracts: Type.Optional(Type.Record(Type.String(), Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }))),
    peg: Type.Optional(Type.String()),
  },
  { title: 'Entity', description: 'A canonical entity: `ids` maps an upstream to its identifier (coingecko, yahoo, binance, …)' },
);
export type Entity = Type.Static<typeof EntitySchema>;

const DatasetSchema = Type.Object({
  version: Type.Integer(),
  origin: Origin,
  as_of: Type.Integer(),
  license: Type.String(),
  source_note: Type.String(),
  entities: Type.Array(EntitySchema),
});
export type Dataset = Type.Static<typeof DatasetSchema>;

const shipped = curatedFile(new URL('./entities.v1.json', import.meta.url), DatasetSchema);

/** The versioned data file, validated once at start-up; a malformed file stops the service. */
export function loadDataset(path?: URL): Dataset {
  const raw = path ? curatedFile(path, DatasetSchema)() : shipped();
  const ids = new Set(raw.entities.map((e) => e.id));
  if (ids.size !== raw.entities.length) throw new Error('entity dataset has duplicate ids');
  return raw;
}
