import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { roundTo } from '../core/numbers.js';
import { noData } from '../upstream/errors.js';
import { citation, curatedFile, Origin } from '../core/curated.js';
import { defineSource, type Row } from './define.js';
import { fromEmissions, type Unlock } from '../upstream/formats/defillama-emissions.js';
import { candidatesFor, emissionsOf, type Candidate } from './lib/emissions.js';
import { whyNot } from './lib/q.js';

const MAX_ROWS = 12;

const Asset = Type.Object({ symbol: Type.String(), slug: Type.String(), name: Type.String() });
type Asset = Type.Static<typeof Asset>;
/** A curated unlock is served only with its origin and only until `valid_until` (Unix s). */
const CuratedUnlock = Type.Object({
  symbol: Type.String(),
  unlock_at: Type.Integer(),
  amount_tokens: Type.Number({ exclusiveMinimum: 0 }),
  pct_of_max_supply: Type.Union([Type.Number(), Type.Null()]),
  recipients: Type.Array(Type.String()),
  categories: Type.Array(Type.String()),
  origin: Origin,
  valid_until: Type.Integer(),
});
export const DataFile = Type.Object({
  version: Type.Literal(2),
  origin: Origin,
  note: Type.String(),
  assets: Type.Array(Asset),
  unlocks: Type.Array(CuratedUnlock),
});
export type DataFile = Type.Static<typeof DataFile>;

/** Symbols whose DefiLlama file is known (a fast path, and files its index does not list) and the curated unlocks. */
export const curatedData = curatedFile(new URL('./data/token-unlock.v2.json', import.meta.url), DataFile);

export function unlockSymbol(q: string): string {
  const symbol = q.toUpperCase();
  if (!/^[A-Z0-9]{2,15}$/.test(symbol))
    throw invalidQ('<asset_symbol> (2-15 letters or digits, e.g. ARB)', 'ARB', whyNot(q, 'a token symbol'));
  return symbol;
}

/** The token's name for rows: the curated map's, else the symbol itself. */
const knownAsset = (symbol: string): Asset | undefined => curatedData().assets.find((e) => e.symbol === symbol);

const dateOf = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);

/** Upcoming unlocks only, soonest first; empty when none is scheduled. */
export function toRows(asset: Pick<Candidate, 'symbol' | 'name'>, unlocks: Unlock[], nowS: number, maxSupply: number | null): Row[] {
  const upcoming = unlocks
    .filter((u) => u.timestamp > nowS)
    .sort((a, b) => a.timestamp - b.timestamp)
    .slice(0, MAX_ROWS);
  return upcoming.map((u) => ({
    symbol: asset.symbol,
    name: asset.name,
    unlock_at: u.timestamp,
    date: dateOf(u.timestamp),
    amount_tokens: u.amount,
    pct_of_max_supply: maxSupply ? roundTo((u.amount / maxSupply) * 100, 4) : null,
    recipients: u.recipients,
    categories: u.categories,
  }));
}

/** Curated rows still valid at `nowS` and still upcoming, each with its cited origin. */
export function curatedRows(file: DataFile, symbol: string, nowS: number): Row[] {
  const name = file.assets.find((e) => e.symbol === symbol)?.name ?? symbol;
  const valid = file.unlocks.filter((u) => u.symbol === symbol && u.valid_until > nowS && u.unlock_at > nowS);
  return valid
    .sort((a, b) => a.unlock_at - b.unlock_at)
    .slice(0, MAX_ROWS)
    .map(({ symbol: _symbol, valid_until, ...u }) => ({
      symbol,
      name,
      ...u,
      date: dateOf(u.unlock_at),
      valid_until,
      source: `curated: ${citation(u.origin)}`,
    }));
}

/**
 * Rows: symbol, name, unlock_at (Unix s), date, amount_tokens, pct_of_max_supply, recipients, categories; upcoming cliff
 * unlocks, soonest first (up to 12). Any token DefiLlama's emissions data covers: the symbol is matched to its file through
 * CoinGecko's coins of that symbol (largest first) and the file's CoinGecko id. Curated rows add origin {publisher, urls,
 * retrieved} and valid_until, and cite it in source.
 */
export default defineSource<string>({
  type: 'token-unlock',
  categories: ['crypto', 'trader'],
  qShape: '<asset_symbol>',
  example: 'ARB',
  desc: "`<asset_symbol>`; upcoming token unlocks from DefiLlama's emissions data (any token it covers)",
  parseQ: unlockSymbol,
  keyOf: (symbol) => symbol,
  ttlSeconds: 6 * 3600,
  deadlineMs: 6000,
  entityQ: (e) => (e.type === 'crypto' ? e.ids.symbol : undefined),
  upstreams: {
    'defillama-datasets': async (symbol, { http, upstream, deadline, clock }) => {
      const known = knownAsset(symbol);
      const candidates = known ? [known] : await candidatesFor(symbol, http, upstream('coingecko'), deadline);
      const [token, raw] = await emissionsOf(http, symbol, candidates, deadline);
      const rows = toRows(token, fromEmissions(raw), Math.floor(clock.now() / 1000), raw.supplyMetrics?.maxSupply ?? null);
      if (rows.length === 0) throw noData(`DefiLlama lists no upcoming ${symbol} unlock`);
      return rows;
    },
  },
  curated: (symbol, { clock }) => curatedRows(curatedData(), symbol, Math.floor(clock.now() / 1000)),
});
