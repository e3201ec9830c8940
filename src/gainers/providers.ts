import Type from 'typebox';
import type { HostHttp } from '../upstream/client.js';

export interface Mover {
  ticker: string;
  name: string;
  price: number;
  change_24h_pct: number;
  volume_24h: number | null;
}

export type Direction = 'up' | 'down';

const Markets = Type.Array(
  Type.Object({
    id: Type.String(),
    symbol: Type.String(),
    name: Type.String(),
    current_price: Type.Union([Type.Number(), Type.Null()]),
    price_change_percentage_24h: Type.Union([Type.Number(), Type.Null()]),
    total_volume: Type.Union([Type.Number(), Type.Null()]),
  }),
);
type Markets = Type.Static<typeof Markets>;

const Screener = Type.Object({
  finance: Type.Object({
    result: Type.Union([
      Type.Null(),
      Type.Array(
        Type.Object({
          quotes: Type.Array(
            Type.Object({
              symbol: Type.String(),
              shortName: Type.Optional(Type.String()),
              regularMarketPrice: Type.Optional(Type.Number()),
              regularMarketChangePercent: Type.Optional(Type.Number()),
              regularMarketVolume: Type.Optional(Type.Number()),
            }),
          ),
        }),
      ),
    ]),
  }),
});
type Screener = Type.Static<typeof Screener>;

/**
 * Gainers are movers that rose (change > 0), losers movers that fell (change < 0), biggest move first;
 * an unchanged or opposite mover is in neither list, however short the list gets.
 */
export function rankMovers(movers: Mover[], dir: Direction): Mover[] {
  const sign = dir === 'up' ? 1 : -1;
  return movers.filter((m) => m.change_24h_pct * sign > 0).sort((a, b) => (b.change_24h_pct - a.change_24h_pct) * sign);
}

/** The top 250 coins by market cap with a 24 h change. */
export function coinMovers(raw: Markets): Mover[] {
  return raw.flatMap((c) =>
    c.current_price === null || c.price_change_percentage_24h === null
      ? []
      : [
          {
            ticker: c.symbol.toUpperCase(),
            name: c.name,
            price: c.current_price,
            change_24h_pct: c.price_change_percentage_24h,
            volume_24h: c.total_volume,
          },
        ],
  );
}

export function screenerMovers(raw: Screener): Mover[] {
  return (raw.finance.result?.[0]?.quotes ?? []).flatMap((q) =>
    q.regularMarketPrice === undefined || q.regularMarketChangePercent === undefined
      ? []
      : [
          {
            ticker: q.symbol,
            name: q.shortName ?? q.symbol,
            price: q.regularMarketPrice,
            change_24h_pct: q.regularMarketChangePercent,
            volume_24h: q.regularMarketVolume ?? null,
          },
        ],
  );
}

export async function cryptoMovers(http: HostHttp, dir: Direction, deadline: number): Promise<Mover[]> {
  const raw = await http.json<Markets>('/api/v3/coins/markets', Markets, {
    deadline,
    query: { vs_currency: 'usd', order: 'market_cap_desc', per_page: 250, page: 1, price_change_percentage: '24h' },
  });
  // None moving that way is an answer (an empty list), not an upstream failure.
  return rankMovers(coinMovers(raw), dir);
}

/** Yahoo's predefined day_gainers / day_losers screeners (US equities, regular session). */
export async function stockMovers(http: HostHttp, dir: Direction, deadline: number): Promise<Mover[]> {
  const raw = await http.json<Screener>('/v1/finance/screener/predefined/saved', Screener, {
    deadline,
    query: { scrIds: dir === 'up' ? 'day_gainers' : 'day_losers', count: 25 },
  });
  return rankMovers(screenerMovers(raw), dir);
}
