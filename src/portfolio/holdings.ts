import type { Holding, Security } from 'plaid';
import type { Entity } from '../entities/dataset.js';
import type { EntityResolver } from '../entities/resolver.js';
import type { PlaidPull } from './plaid.js';

/** A holding as svc stores it, from Plaid or typed in; `entity_id` only for an exact identifier match. */
export interface HoldingRow {
  symbol: string | null;
  name: string | null;
  entity_id: string | null;
  asset_class: AssetClass;
  sector: string | null;
  currency: string;
  quantity: number;
  /** Total cost of the position (not per unit), when known. */
  cost_basis: number | null;
  /** The institution's last price and its date (Plaid), the fallback when no live price answers. */
  institution_price: number | null;
  institution_price_as_of: string | null;
  identifiers: Identifiers;
  source: 'plaid' | 'manual' | 'wallet';
}

export type AssetClass = 'equity' | 'etf' | 'fund' | 'crypto' | 'stablecoin' | 'cash' | 'fixed_income' | 'other';

export interface Identifiers {
  ticker?: string;
  isin?: string;
  cusip?: string;
  contract?: string;
}

export interface Unmapped {
  symbol: string | null;
  name: string | null;
  identifiers: Identifiers;
  reason: string;
}

export interface Balance {
  account_id: string;
  name: string;
  type: string;
  subtype: string | null;
  current: number | null;
  available: number | null;
  currency: string | null;
}

export interface TransactionRow {
  date: string;
  name: string;
  type: string;
  symbol: string | null;
  quantity: number;
  price: number;
  amount: number;
  currency: string | null;
}

export interface Mapped {
  holdings: HoldingRow[];
  unmapped: Unmapped[];
}

/** A manual holding: exactly one of symbol, contract (`<chain>:0x…`) or isin. */
export interface ManualHolding {
  symbol?: string;
  contract?: string;
  isin?: string;
  quantity: number;
  cost_basis?: number;
}

const ENTITY_CLASS: Record<Entity['type'], AssetClass> = {
  equity: 'equity',
  crypto: 'crypto',
  stablecoin: 'stablecoin',
  forex: 'cash',
  commodity: 'other',
  index: 'other',
  perp: 'other',
};
const PLAID_CLASS: Record<string, AssetClass> = {
  equity: 'equity',
  etf: 'etf',
  'mutual fund': 'fund',
  cryptocurrency: 'crypto',
  cash: 'cash',
  'fixed income': 'fixed_income',
};

/**
 * The entity an identifier names exactly: an ISIN, CUSIP, ticker/symbol or contract address that
 * exactly one entity carries. Names, aliases and fuzzy matches never count: unmapped beats guessed.
 */
export function entityFor(resolver: EntityResolver, ids: Identifiers): Entity | undefined {
  const tries: [string | undefined, (on: string) => boolean][] = [
    [ids.isin, (on) => on === 'isin'],
    [ids.cusip, (on) => on === 'cusip'],
    [ids.contract?.split(':')[1], (on) => on === `contract:${ids.contract!.split(':')[0]}`],
    [ids.ticker, (on) => on === 'ticker' || on === 'symbol'],
  ];
  for (const [value, kind] of tries) {
    if (!value) continue;
    const exact = resolver.resolve(value, 5).matches.filter((m) => m.confidence === 1 && kind(m.matched_on));
    const distinct = new Set(exact.map((m) => m.id));
    if (distinct.size === 1) return resolver.get([...distinct][0]!);
  }
  return undefined;
}

function row(
  resolver: EntityResolver,
  base: Omit<HoldingRow, 'entity_id' | 'asset_class' | 'sector'> & { asset_class?: AssetClass; sector?: string | null },
): { holding: HoldingRow; unmapped?: Unmapped } {
  const entity = base.asset_class === 'cash' ? undefined : entityFor(resolver, base.identifiers);
  const holding: HoldingRow = {
    ...base,
    symbol: base.symbol ?? entity?.ids.symbol ?? null,
    name: base.name ?? entity?.name ?? null,
    entity_id: entity?.id ?? null,
    asset_class: entity
      ? base.asset_class === 'etf' || base.asset_class === 'fund'
        ? base.asset_class
        : ENTITY_CLASS[entity.type]
      : (base.asset_class ?? 'other'),
    sector: base.sector ?? entity?.category ?? null,
  };
  const missed = !entity && holding.asset_class !== 'cash';
  return {
    holding,
    ...(missed
      ? {
          unmapped: {
            symbol: base.symbol,
            name: base.name,
            identifiers: base.identifiers,
            reason: 'no entity carries this identifier exactly',
          },
        }
      : {}),
  };
}

function collect(rows: { holding: HoldingRow; unmapped?: Unmapped }[]): Mapped {
  return { holdings: rows.map((r) => r.holding), unmapped: rows.flatMap((r) => (r.unmapped ? [r.unmapped] : [])) };
}

const identifiersOf = (s: Security | undefined): Identifiers => ({
  ...(s?.ticker_symbol ? { ticker: s.ticker_symbol } : {}),
  ...(s?.isin ? { isin: s.isin } : {}),
  ...(s?.cusip ? { cusip: s.cusip } : {}),
});

export function mapPlaid(resolver: EntityResolver, pull: PlaidPull): Mapped {
  const securities = new Map(pull.securities.map((s) => [s.security_id, s]));
  return collect(
    pull.holdings.map((h: Holding) => {
      const s = securities.get(h.security_id);
      const cls = s?.is_cash_equivalent ? 'cash' : (PLAID_CLASS[s?.type ?? ''] ?? 'other');
      return row(resolver, {
        symbol: s?.ticker_symbol ?? null,
        name: s?.name ?? null,
        asset_class: cls,
        sector: s?.sector ?? undefined,
        currency: h.iso_currency_code ?? h.unofficial_currency_code ?? 'USD',
        quantity: h.quantity,
        cost_basis: h.cost_basis,
        institution_price: h.institution_price,
        institution_price_as_of: h.institution_price_as_of ?? null,
        identifiers: identifiersOf(s),
        source: 'plaid',
      });
    }),
  );
}

/** A typed-in holding or a wallet balance, before mapping. */
export interface ManualItem {
  identifiers: Identifiers;
  symbol: string | null;
  name: string | null;
  quantity: number;
  cost_basis: number | null;
  source: 'manual' | 'wallet';
}

export const manualItem = (h: ManualHolding): ManualItem => ({
  identifiers: h.symbol
    ? { ticker: h.symbol.toUpperCase() }
    : h.isin
      ? { isin: h.isin.toUpperCase() }
      : { contract: h.contract!.toLowerCase() },
  symbol: h.symbol?.toUpperCase() ?? null,
  name: null,
  quantity: h.quantity,
  cost_basis: h.cost_basis ?? null,
  source: 'manual',
});

export function mapManual(resolver: EntityResolver, items: ManualItem[]): Mapped {
  return collect(items.map((item) => row(resolver, { ...item, currency: 'USD', institution_price: null, institution_price_as_of: null })));
}

export function balancesOf(pull: PlaidPull): Balance[] {
  return pull.accounts.map((a) => ({
    account_id: a.account_id,
    name: a.name,
    type: a.type,
    subtype: a.subtype ?? null,
    current: a.balances.current,
    available: a.balances.available,
    currency: a.balances.iso_currency_code ?? a.balances.unofficial_currency_code ?? null,
  }));
}

export function transactionsOf(pull: PlaidPull): TransactionRow[] {
  const symbols = new Map(pull.securities.map((s) => [s.security_id, s.ticker_symbol]));
  return pull.transactions.map((t) => ({
    date: t.date,
    name: t.name,
    type: t.type,
    symbol: (t.security_id && symbols.get(t.security_id)) ?? null,
    quantity: t.quantity,
    price: t.price,
    amount: t.amount,
    currency: t.iso_currency_code ?? t.unofficial_currency_code ?? null,
  }));
}
