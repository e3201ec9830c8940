import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { defineSource, type Row } from './define.js';

const HOUR_MS = 3_600_000;

export function parseAsset(q: string): string {
  const symbol = q.trim().toUpperCase().replace(/USDT$/, '');
  if (!/^[A-Z0-9]{2,10}$/.test(symbol)) throw invalidQ('<asset_symbol> such as BTC', 'BTC');
  return symbol;
}

const Premium = Type.Object({ symbol: Type.String(), markPrice: Type.String(), lastFundingRate: Type.String(), nextFundingTime: Type.Integer(), time: Type.Integer() });
const History = Type.Array(Type.Object({ fundingRate: Type.String(), fundingTime: Type.Integer() }));
const BybitTickers = Type.Object({ retCode: Type.Integer(), result: Type.Object({ list: Type.Array(Type.Object({ symbol: Type.String(), markPrice: Type.String(), fundingRate: Type.String(), nextFundingTime: Type.String() })) }) });
const BybitHistory = Type.Object({ retCode: Type.Integer(), result: Type.Object({ list: Type.Array(Type.Object({ fundingRate: Type.String(), fundingRateTimestamp: Type.String() })) }) });

export interface Settled {
  rate: number;
  at: number;
}

/**
 * Our definitions: the funding interval is the gap between the last two settlements; the 8-hour
 * average is the mean of the settlements in the last 8 hours scaled to an 8-hour interval; the
 * annualized figure compounds nothing (rate × settlements per year × 100).
 */
export function fundingRow(symbol: string, pair: string, current: number, markPrice: number, nextAtMs: number, settled: Settled[], asOfMs: number): Row {
  const history = [...settled].sort((a, b) => b.at - a.at);
  if (!history.length) throw noData(`no funding history for ${pair}`);
  const intervalHours = history.length > 1 ? Math.round((history[0]!.at - history[1]!.at) / HOUR_MS) || 8 : 8;
  const recent = history.filter((h) => h.at > history[0]!.at - 8 * HOUR_MS);
  const avg8h = (recent.reduce((sum, h) => sum + h.rate, 0) / recent.length) * (8 / intervalHours);
  const round = (n: number) => Number(n.toPrecision(10));
  return {
    symbol,
    pair,
    funding_rate: current,
    funding_rate_8h_avg: round(avg8h),
    interval_hours: intervalHours,
    next_funding_at: Math.floor(nextAtMs / 1000),
    mark_price: markPrice,
    annualized_pct: round(current * (24 / intervalHours) * 365 * 100),
    as_of: Math.floor(asOfMs / 1000),
  };
}

/** Rows: symbol, pair, funding_rate (per interval, fraction), funding_rate_8h_avg, interval_hours, next_funding_at, mark_price, annualized_pct. */
export default defineSource<string>({
  type: 'funding-rates',
  categories: ['crypto', 'trader', 'perps'],
  qShape: '<asset_symbol>',
  example: 'BTC',
  desc: '`<asset_symbol>`; current perpetual funding and 8-hour average',
  parseQ: parseAsset,
  ttlSeconds: 60,
  deadlineMs: 5000,
  entityQ: (e) => (e.type === 'perp' ? e.ids.funding_asset : e.type === 'crypto' && e.ids.binance ? e.ids.symbol : undefined),
  upstreams: {
    'binance-futures': async (symbol, { http, deadline }) => {
      const pair = `${symbol}USDT`;
      const [premium, history] = await Promise.all([
        http.json<Type.Static<typeof Premium>>('/fapi/v1/premiumIndex', Premium, { deadline, query: { symbol: pair } }),
        http.json<Type.Static<typeof History>>('/fapi/v1/fundingRate', History, { deadline, query: { symbol: pair, limit: 10 } }),
      ]);
      const settled = history.map((h) => ({ rate: Number(h.fundingRate), at: h.fundingTime }));
      return [fundingRow(symbol, pair, Number(premium.lastFundingRate), Number(premium.markPrice), premium.nextFundingTime, settled, premium.time)];
    },
    bybit: async (symbol, { http, deadline, clock }) => {
      const pair = `${symbol}USDT`;
      const [tickers, history] = await Promise.all([
        http.json<Type.Static<typeof BybitTickers>>('/v5/market/tickers', BybitTickers, { deadline, query: { category: 'linear', symbol: pair } }),
        http.json<Type.Static<typeof BybitHistory>>('/v5/market/funding/history', BybitHistory, { deadline, query: { category: 'linear', symbol: pair, limit: 10 } }),
      ]);
      const t = tickers.result.list[0];
      if (!t) throw noData(`Bybit has no ${pair} perpetual`);
      const settled = history.result.list.map((h) => ({ rate: Number(h.fundingRate), at: Number(h.fundingRateTimestamp) }));
      return [fundingRow(symbol, pair, Number(t.fundingRate), Number(t.markPrice), Number(t.nextFundingTime), settled, clock.now())];
    },
  },
});
