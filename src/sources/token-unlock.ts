import { readFileSync } from 'node:fs';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

const MAX_ROWS = 12;

const Unlock = Type.Object({ timestamp: Type.Integer(), amount: Type.Number(), recipients: Type.Array(Type.String()), categories: Type.Array(Type.String()) });
type Unlock = Type.Static<typeof Unlock>;
const Asset = Type.Object({ symbol: Type.String(), slug: Type.String(), name: Type.String(), max_supply: Type.Union([Type.Number(), Type.Null()]), unlocks: Type.Array(Unlock) });
type Asset = Type.Static<typeof Asset>;
const DataFile = Type.Object({ version: Type.Integer(), as_of: Type.Integer(), source_note: Type.String(), entries: Type.Array(Asset) });
type DataFile = Type.Static<typeof DataFile>;

/** The versioned data file: the symbol → DefiLlama slug map, plus the curated unlocks served offline. */
let dataFile: DataFile | undefined;
export function curatedData(): DataFile {
  if (dataFile) return dataFile;
  const raw: unknown = JSON.parse(readFileSync(new URL('./data/token-unlock.v1.json', import.meta.url), 'utf8'));
  if (!Compile(DataFile).Check(raw)) throw new Error('token-unlock.v1.json is malformed');
  return (dataFile = raw);
}

export function assetOf(q: string): Asset {
  const symbol = q.toUpperCase();
  const asset = curatedData().entries.find((e) => e.symbol === symbol);
  if (!asset) {
    const symbols = curatedData().entries.map((e) => e.symbol);
    throw invalidQ(`<asset_symbol>, one of: ${symbols.join(', ')}`, 'ARB', q ? `"${q}" has no unlock schedule here` : 'q is required');
  }
  return asset;
}

/** Timestamps sometimes arrive as strings; `linear` allocations hold rate changes, not volumes, so only cliffs count. */
const Emissions = Type.Object({
  metadata: Type.Object({
    unlockEvents: Type.Array(
      Type.Object({
        timestamp: Type.Union([Type.Number(), Type.String()]),
        cliffAllocations: Type.Optional(Type.Array(Type.Object({ recipient: Type.String(), category: Type.String(), amount: Type.Number() }))),
      }),
    ),
  }),
  supplyMetrics: Type.Optional(Type.Object({ maxSupply: Type.Optional(Type.Union([Type.Number(), Type.Null()])) })),
});
type Emissions = Type.Static<typeof Emissions>;

export const fromEmissions = (raw: Emissions): Unlock[] =>
  raw.metadata.unlockEvents.flatMap((e) => {
    const cliffs = e.cliffAllocations ?? [];
    const amount = cliffs.reduce((sum, c) => sum + c.amount, 0);
    return amount > 0
      ? [{ timestamp: Number(e.timestamp), amount, recipients: [...new Set(cliffs.map((c) => c.recipient))], categories: [...new Set(cliffs.map((c) => c.category))] }]
      : [];
  });

/** Upcoming unlocks only, soonest first; empty when none is scheduled. */
export function toRows(asset: Asset, unlocks: Unlock[], nowS: number, maxSupply: number | null, asOf?: number): Row[] {
  const upcoming = unlocks.filter((u) => u.timestamp > nowS).sort((a, b) => a.timestamp - b.timestamp).slice(0, MAX_ROWS);
  return upcoming.map((u) => ({
    symbol: asset.symbol,
    name: asset.name,
    unlock_at: u.timestamp,
    date: new Date(u.timestamp * 1000).toISOString().slice(0, 10),
    amount_tokens: u.amount,
    pct_of_max_supply: maxSupply ? Math.round((u.amount / maxSupply) * 1e6) / 1e4 : null,
    recipients: u.recipients,
    categories: u.categories,
    ...(asOf ? { as_of: asOf } : {}),
  }));
}

/** Rows: symbol, name, unlock_at (Unix s), date, amount_tokens, pct_of_max_supply, recipients, categories; upcoming cliff unlocks, soonest first (up to 12). */
export default defineSource<Asset>({
  type: 'token-unlock',
  categories: ['crypto', 'trader'],
  qShape: '<asset_symbol>',
  example: 'ARB',
  desc: '`<asset_symbol>`; curated list of upcoming unlocks',
  parseQ: assetOf,
  keyOf: (asset) => asset.symbol,
  ttlSeconds: 6 * 3600,
  deadlineMs: 6000,
  entityQ: (e) => (e.type === 'crypto' ? e.ids.symbol : undefined),
  upstreams: {
    'defillama-datasets': async (asset, { http, deadline, clock }) => {
      const raw = await http.json<Emissions>(`/emissions/${asset.slug}`, Emissions, { deadline });
      const rows = toRows(asset, fromEmissions(raw), Math.floor(clock.now() / 1000), raw.supplyMetrics?.maxSupply ?? asset.max_supply);
      if (rows.length === 0) throw noData(`DefiLlama lists no upcoming ${asset.symbol} unlock`);
      return rows;
    },
  },
  curated: (asset, { clock }) => toRows(asset, asset.unlocks, Math.floor(clock.now() / 1000), asset.max_supply, curatedData().as_of),
});
