import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import { defineSource } from './define.js';
import { fundingRow } from './lib/funding.js';
import { hyperliquidFunding } from './lib/hyperliquid.js';

export function parseAsset(q: string): string {
  const symbol = q.trim().toUpperCase().replace(/USDT$/, '');
  if (!/^[A-Z0-9]{2,10}$/.test(symbol)) throw invalidQ('<asset_symbol> such as BTC', 'BTC');
  return symbol;
}

const Premium = Type.Object({
  symbol: Type.String(),
  markPrice: Type.String(),
  lastFundingRate: Type.String(),
  nextFundingTime: Type.Integer(),
  time: Type.Integer(),
});
const History = Type.Array(Type.Object({ fundingRate: Type.String(), fundingTime: Type.Integer() }));
// Bybit answers HTTP 200 to everything; a symbol it does not list is retCode 10001 with an empty `result`.
const BybitTickers = Type.Object({
  retCode: Type.Integer(),
  retMsg: Type.Optional(Type.String()),
  result: Type.Object({
    list: Type.Optional(
      Type.Array(
        Type.Object({ symbol: Type.String(), markPrice: Type.String(), fundingRate: Type.String(), nextFundingTime: Type.String() }),
      ),
    ),
  }),
});
const BybitHistory = Type.Object({
  retCode: Type.Integer(),
  result: Type.Object({
    list: Type.Optional(Type.Array(Type.Object({ fundingRate: Type.String(), fundingRateTimestamp: Type.String() }))),
  }),
});
const BYBIT_PARAMS_ERROR = 10001;

/**
 * Rows: symbol, pair (the instrument as the exchange names it), quote (the margin and mark-price currency: USDT on
 * Binance and Bybit, USDC on Hyperliquid), funding_rate (per interval, fraction), funding_rate_8h_avg (time-weighted over
 * the last 8 hours), interval_hours (8 on most Binance and Bybit pairs, 1 on Hyperliquid), next_funding_at, mark_price,
 * annualized_pct. Binance, then Bybit, then Hyperliquid; a regional refusal is `region_blocked` and the next is tried.
 */
export default defineSource<string>({
  type: 'funding-rates',
  categories: ['crypto', 'trader', 'perps'],
  qShape: '<asset_symbol>',
  example: 'BTC',
  desc: '`<asset_symbol>`; current perpetual funding and 8-hour average',
  parseQ: parseAsset,
  namesInstrument: true,
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
      return [
        fundingRow(
          symbol,
          pair,
          'USDT',
          Number(premium.lastFundingRate),
          Number(premium.markPrice),
          premium.nextFundingTime,
          settled,
          premium.time,
        ),
      ];
    },
    bybit: async (symbol, { http, deadline, clock }) => {
      const pair = `${symbol}USDT`;
      const [tickers, history] = await Promise.all([
        http.json<Type.Static<typeof BybitTickers>>('/v5/market/tickers', BybitTickers, {
          deadline,
          query: { category: 'linear', symbol: pair },
        }),
        http.json<Type.Static<typeof BybitHistory>>('/v5/market/funding/history', BybitHistory, {
          deadline,
          query: { category: 'linear', symbol: pair, limit: 10 },
        }),
      ]);
      if (tickers.retCode !== 0 && tickers.retCode !== BYBIT_PARAMS_ERROR)
        throw new UpstreamError('upstream_error', `Bybit: ${tickers.retCode} ${tickers.retMsg ?? ''}`);
      const t = tickers.result.list?.[0];
      if (!t) throw noData(`Bybit has no ${pair} perpetual`);
      const settled = (history.result.list ?? []).map((h) => ({ rate: Number(h.fundingRate), at: Number(h.fundingRateTimestamp) }));
      return [
        fundingRow(symbol, pair, 'USDT', Number(t.fundingRate), Number(t.markPrice), Number(t.nextFundingTime), settled, clock.now()),
      ];
    },
    // Keyless and not among the exchanges that refuse US-hosted servers (Binance answers 451, Bybit a CloudFront 403).
    hyperliquid: async (symbol, { http, deadline, clock }) => [await hyperliquidFunding(http, symbol, clock.now(), deadline)],
  },
});
