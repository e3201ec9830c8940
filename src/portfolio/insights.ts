import type { Clock } from '../core/clock.js';
import { unixSeconds } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Entity } from '../entities/dataset.js';
import type { EntityResolver } from '../entities/resolver.js';
import type { SourceResult, SourceRunner } from '../sources/runner.js';
import type { BacktestService } from '../backtest/service.js';
import type { HoldingRow } from './holdings.js';
import type { Snapshot } from './service.js';
import { allocation, hhi, maxDrawdown, returns, stdev, unrealized, valueSeries, weights } from './formulas.js';
import { roundTo } from '../core/numbers.js';
import { candleQuery, freshnessOf, institutionPrice, liveQuote } from './quotes.js';

/**
 * Insights are computed, never generated: live prices from the data types, then the formulas of
 * formulas.ts. Every price carries its source and as_of; what could not be priced is listed.
 */
export const WINDOW_DAYS = 30;
const DAY_S = 86_400;
const FLAG_RISK_SCORE = 50;

export interface Position {
  symbol: string | null;
  name: string | null;
  entity_id: string | null;
  asset_class: string;
  sector: string | null;
  currency: string;
  quantity: number;
  price: number;
  price_source: string;
  price_as_of: number;
  /** The price's freshness, as every data row has it (src/sources/freshness.ts). */
  as_of: number;
  as_of_kind: 'source' | 'fetched';
  age_s: number;
  stale: boolean;
  value: number;
  weight_pct: number;
  cost_basis: number | null;
  unrealized_pl: number | null;
}

export interface Insights {
  user_id: string;
  as_of: number;
  snapshot_as_of: number;
  currency: 'USD';
  market_value: number;
  positions: Position[];
  unpriced: { symbol: string | null; name: string | null; reason: string }[];
  allocation: { asset_class: Record<string, number>; sector: Record<string, number>; currency: Record<string, number> };
  concentration: {
    top_holding: { symbol: string | null; share_pct: number } | null;
    hhi: number | null;
    effective_positions: number | null;
  };
  unrealized_pl: { usd: number; pct: number | null; positions_with_cost_basis: number } | null;
  risk: {
    window_days: number;
    observations: number;
    daily_volatility_pct: number | null;
    annualized_volatility_pct: number | null;
    max_drawdown_pct: number | null;
    coverage_pct: number;
    note: string;
  };
  flagged_tokens: {
    symbol: string | null;
    entity_id: string;
    risk_score: number | null;
    is_honeypot: boolean | null;
    receipt_source: string;
  }[];
  upcoming_events: { symbol: string | null; kind: 'token_unlock'; date: string; detail: Record<string, unknown> }[];
  sources: string[];
}

interface Priced {
  holding: HoldingRow;
  entity?: Entity;
  price: number;
  source: string;
  as_of: number;
  as_of_kind: 'source' | 'fetched';
  stale: boolean;
}

const ok = (r: SourceResult | undefined): r is Extract<SourceResult, { ok: true }> => r?.ok === true;

export class InsightsCalculator {
  constructor(private readonly o: { sources: SourceRunner; backtests: BacktestService; resolver: EntityResolver; clock: Clock }) {}

  /** A fetch whose q the type refuses (a symbol token-unlock does not track, say) is simply no data. */
  private async run(type: string, q: string): Promise<SourceResult | undefined> {
    try {
      return await this.o.sources.run(type, q);
    } catch (e) {
      if (e instanceof ApiError) return undefined;
      throw e;
    }
  }

  async compute(snapshot: Snapshot): Promise<Insights> {
    const now = unixSeconds(this.o.clock);
    const results = await this.priceAll(snapshot, now);
    const priced = results.flatMap((r) => ('price' in r ? [r] : []));
    const unpriced = results.flatMap((r) => ('reason' in r ? [{ symbol: r.holding.symbol, name: r.holding.name, reason: r.reason }] : []));
    const values = priced.map((p) => p.holding.quantity * p.price);
    const w = weights(values);
    const positions: Position[] = priced.map((p, i) => ({
      symbol: p.holding.symbol,
      name: p.holding.name ?? p.entity?.name ?? null,
      entity_id: p.holding.entity_id,
      asset_class: p.holding.asset_class,
      sector: p.holding.sector,
      currency: p.holding.currency,
      quantity: p.holding.quantity,
      price: p.price,
      price_source: p.source,
      price_as_of: p.as_of,
      as_of: p.as_of,
      as_of_kind: p.as_of_kind,
      age_s: Math.max(0, now - p.as_of),
      stale: p.stale,
      value: roundTo(values[i]!, 2),
      weight_pct: roundTo(w[i]! * 100, 2),
      cost_basis: p.holding.cost_basis,
      unrealized_pl: p.holding.cost_basis !== null ? roundTo(values[i]! - p.holding.cost_basis, 2) : null,
    }));
    const top = positions.reduce<Position | undefined>((a, p) => (!a || p.value > a.value ? p : a), undefined);
    const index = positions.length ? hhi(w) : null;
    const pl = unrealized(positions.map((p, i) => ({ value: values[i]!, cost_basis: p.cost_basis })));
    const [risk, flags, events] = await Promise.all([this.risk(priced, now), this.flags(priced), this.events(priced)]);
    const sources = [...new Set([...priced.map((p) => p.source), ...flags.map((f) => f.receipt_source), ...(risk.sources ?? [])])].sort();
    return {
      user_id: snapshot.user_id,
      as_of: priced.length ? Math.min(...priced.map((p) => p.as_of)) : snapshot.as_of,
      snapshot_as_of: snapshot.as_of,
      currency: 'USD',
      market_value: roundTo(
        values.reduce((a, b) => a + b, 0),
        2,
      ),
      positions,
      unpriced,
      allocation: {
        asset_class: allocation(positions, (p) => p.asset_class),
        sector: allocation(positions, (p) => p.sector ?? 'unknown'),
        currency: allocation(positions, (p) => p.currency),
      },
      concentration: {
        top_holding: top ? { symbol: top.symbol, share_pct: top.weight_pct } : null,
        hhi: index === null ? null : roundTo(index, 4),
        effective_positions: index ? roundTo(1 / index, 2) : null,
      },
      unrealized_pl: pl
        ? { usd: roundTo(pl.usd, 2), pct: pl.pct === null ? null : roundTo(pl.pct, 2), positions_with_cost_basis: pl.covered }
        : null,
      risk: risk.figures,
      flagged_tokens: flags,
      upcoming_events: events,
      sources,
    };
  }

  /** Cash at 1; mapped crypto via crypto-price, equities via stock-quote; else the institution's price; else unpriced. */
  private async priceAll(snapshot: Snapshot, now: number): Promise<(Priced | { holding: HoldingRow; reason: string })[]> {
    const live = new Map<string, Promise<SourceResult | undefined>>();
    const fetchOnce = (type: string, q: string) => {
      const key = `${type} ${q}`;
      if (!live.has(key)) live.set(key, this.run(type, q));
      return live.get(key)!;
    };
    return Promise.all(
      snapshot.holdings.map(async (holding) => {
        if (holding.asset_class === 'cash')
          return { holding, price: 1, source: 'cash', as_of: snapshot.as_of, as_of_kind: 'fetched' as const, stale: false };
        const entity = holding.entity_id ? this.o.resolver.get(holding.entity_id) : undefined;
        const quote = entity ? liveQuote(entity) : undefined;
        if (quote) {
          const result = await fetchOnce(quote.type, quote.q);
          const row = ok(result) ? quote.pick(result.rows) : undefined;
          const price = row && quote.priceOf(row);
          if (ok(result) && row && price !== undefined) return { holding, entity, price, source: result.source, ...freshnessOf(row) };
        }
        if (holding.institution_price !== null) return { holding, entity, ...institutionPrice(holding, snapshot.as_of, now) };
        return { holding, reason: quote ? `${quote.type} ${quote.q} did not answer` : 'no data type prices this holding' };
      }),
    );
  }

  /** Daily closes of the last 30 days for every position with candles; cash is a constant; the rest is left out (coverage). */
  private async risk(priced: Priced[], now: number): Promise<{ figures: Insights['risk']; sources?: string[] }> {
    const total = priced.reduce((a, p) => a + p.holding.quantity * p.price, 0);
    const cash = priced.filter((p) => p.holding.asset_class === 'cash').reduce((a, p) => a + p.holding.quantity * p.price, 0);
    const candled = priced.flatMap((p) => {
      const c = p.entity && candleQuery(p.entity);
      return c ? [{ p, ...c }] : [];
    });
    const series = await Promise.all(
      candled.map(async ({ p, type, q }) => {
        try {
          const r = await this.o.backtests.candles({
            type,
            q,
            from: now - (WINDOW_DAYS + 1) * DAY_S,
            to: now,
            interval: '1d',
            paid: false,
          });
          return { p, closes: r.data.map((k) => ({ t: k.t, c: k.c })), source: r.source };
        } catch (e) {
          if (e instanceof ApiError) return undefined;
          throw e;
        }
      }),
    );
    const known = series.filter((s): s is NonNullable<typeof s> => s !== undefined && s.closes.length > 1);
    const covered = cash + known.reduce((a, s) => a + s.p.holding.quantity * s.p.price, 0);
    const values = valueSeries(
      known.map((s) => ({ quantity: s.p.holding.quantity, closes: s.closes.slice(-(WINDOW_DAYS + 1)) })),
      cash,
    );
    const daily = known.length ? stdev(returns(values)) : null;
    const cryptoOnly = known.every((s) => s.p.holding.asset_class === 'crypto' || s.p.holding.asset_class === 'stablecoin');
    const drawdown = known.length ? maxDrawdown(values) : null;
    return {
      figures: {
        window_days: WINDOW_DAYS,
        observations: values.length,
        daily_volatility_pct: daily === null ? null : roundTo(daily * 100, 4),
        annualized_volatility_pct: daily === null ? null : roundTo(daily * Math.sqrt(cryptoOnly ? 365 : 252) * 100, 2),
        max_drawdown_pct: drawdown === null ? null : roundTo(drawdown * 100, 2),
        coverage_pct: total > 0 ? roundTo((covered / total) * 100, 2) : 0,
        note: known.length
          ? 'positions without daily candles are left out; coverage_pct is the share of market value included'
          : 'no position has daily candles',
      },
      sources: known.map((s) => s.source),
    };
  }

  /** Held tokens with a contract: token-risk flags a honeypot or a risk_score of 50 or more. */
  private async flags(priced: Priced[]): Promise<Insights['flagged_tokens']> {
    const tokens = priced.filter((p) => p.entity?.contracts?.ethereum);
    const checked = await Promise.all(
      tokens.map(async (p) => ({ p, result: await this.run('token-risk', `ethereum:${p.entity!.contracts!.ethereum}`) })),
    );
    return checked.flatMap(({ p, result }) => {
      if (!ok(result)) return [];
      const row = result.rows[0];
      if (!row || !(row.is_honeypot === true || Number(row.risk_score) >= FLAG_RISK_SCORE)) return [];
      return [
        {
          symbol: p.holding.symbol,
          entity_id: p.entity!.id,
          risk_score: typeof row.risk_score === 'number' ? row.risk_score : null,
          is_honeypot: typeof row.is_honeypot === 'boolean' ? row.is_honeypot : null,
          receipt_source: result.source,
        },
      ];
    });
  }

  /** Upcoming token unlocks of held crypto (token-unlock); no data type covers earnings dates yet. */
  private async events(priced: Priced[]): Promise<Insights['upcoming_events']> {
    const crypto = priced.filter((p) => p.entity?.type === 'crypto' && p.entity.ids.symbol);
    const found = await Promise.all(crypto.map(async (p) => ({ p, result: await this.run('token-unlock', p.entity!.ids.symbol!) })));
    return found.flatMap(({ p, result }) =>
      ok(result)
        ? result.rows.slice(0, 3).map((r) => ({
            symbol: p.holding.symbol,
            kind: 'token_unlock' as const,
            date: String(r.date),
            detail: { amount_tokens: r.amount_tokens, pct_of_max_supply: r.pct_of_max_supply },
          }))
        : [],
    );
  }
}
