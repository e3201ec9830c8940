import type { Entity } from '../entities/dataset.js';
import type { Row } from '../sources/define.js';
import type { HoldingRow } from './holdings.js';

const DAY_S = 86_400;

/** The data type and q that price an entity live, and the row of its answer that holds the price. */
export function liveQuote(
  e: Entity,
): { type: string; q: string; pick: (rows: Row[]) => Row | undefined; priceOf: (row: Row) => number | undefined } | undefined {
  if ((e.type === 'crypto' || e.type === 'stablecoin') && e.ids.coingecko) {
    const id = e.ids.coingecko;
    return { type: 'crypto-price', q: id, pick: (rows) => rows.find((r) => r.coin === id), priceOf: (row) => numberOr(row.usd) };
  }
  if (e.type === 'equity' && e.ids.ticker)
    return { type: 'stock-quote', q: e.ids.ticker, pick: (rows) => rows[0], priceOf: (row) => numberOr(row.price) };
  return undefined;
}

/** The data type and q of an entity's daily candles. */
export function candleQuery(e: Entity): { type: 'crypto-price' | 'stock-quote'; q: string } | undefined {
  if (e.type === 'crypto' && e.ids.symbol) return { type: 'crypto-price', q: e.ids.symbol };
  if (e.type === 'equity' && e.ids.ticker) return { type: 'stock-quote', q: e.ids.ticker };
  return undefined;
}

const numberOr = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** A live price's freshness: its data row's, stamped by the source runner. */
export const freshnessOf = (row: Record<string, unknown>) => ({
  as_of: Number(row.as_of),
  as_of_kind: row.as_of_kind === 'source' ? ('source' as const) : ('fetched' as const),
  stale: row.stale === true,
});

/**
 * The institution's own price (Plaid), when no data type prices the holding live: an end-of-day value, so stale
 * once it is more than a day old. Dated by the institution (`source`), else by the sync (`fetched`).
 */
export function institutionPrice(holding: HoldingRow, syncedAt: number, now: number) {
  const dated = holding.institution_price_as_of;
  const asOf = dated ? Math.floor(Date.parse(`${dated}T00:00:00Z`) / 1000) : syncedAt;
  const asOfKind = dated ? ('source' as const) : ('fetched' as const);
  return {
    price: holding.institution_price!,
    source: 'plaid-institution-price',
    as_of: asOf,
    as_of_kind: asOfKind,
    stale: now - asOf > DAY_S,
  };
}
