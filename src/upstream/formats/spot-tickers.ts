import Type from 'typebox';

/**
 * Spot tickers of the exchanges crypto-price corroborates with, as their public, keyless endpoints answer (prices are
 * decimal strings everywhere). Only the fields svc reads are declared.
 */

/**
 * Kraken `GET /0/public/Ticker?pair=XBTUSD,ETHUSD` (https://docs.kraken.com/api/docs/rest-api/get-ticker-information):
 * keyed by Kraken's own pair names (`XXBTZUSD`, `SOLUSD`); `c` = last trade [price, lot volume], `o` = today's open.
 * HTTP 200 with a non-empty `error` list is a failure; the ticker carries no timestamp.
 */
export const KrakenTicker = Type.Object({
  error: Type.Array(Type.String()),
  result: Type.Optional(Type.Record(Type.String(), Type.Object({ c: Type.Array(Type.String()), o: Type.String() }))),
});
export type KrakenTicker = Type.Static<typeof KrakenTicker>;

/**
 * Coinbase Exchange `GET /products/BTC-USD/ticker`
 * (https://docs.cdp.coinbase.com/api-reference/exchange-api/rest-api/products/get-product-ticker):
 * the last trade, best bid/ask and 24 h volume; `time` is the last trade's ISO time. An error is `{message}` (an
 * unknown product: 404 `{"message":"NotFound"}`).
 */
export const CoinbaseTicker = Type.Union([
  Type.Object({ price: Type.String(), volume: Type.String(), time: Type.String() }),
  Type.Object({ message: Type.String() }),
]);
export type CoinbaseTicker = Type.Static<typeof CoinbaseTicker>;

/**
 * OKX `GET /api/v5/market/tickers?instType=SPOT` (https://www.okx.com/docs-v5/en/#order-book-trading-market-data-get-tickers):
 * every spot pair (`BTC-USDT`); `code` "0" is success; `ts` in ms as a string.
 */
export const OkxTickers = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  data: Type.Array(Type.Object({ instId: Type.String(), last: Type.String(), open24h: Type.String(), ts: Type.String() })),
});
export type OkxTickers = Type.Static<typeof OkxTickers>;

/**
 * Bybit v5 `GET /v5/market/tickers?category=spot` (https://bybit-exchange.github.io/docs/v5/market/tickers): every spot
 * pair (`BTCUSDT`); `retCode` 0 is success; `price24hPcnt` a fraction; `time` (ms) stamps the whole answer.
 */
export const BybitTickers = Type.Object({
  retCode: Type.Integer(),
  retMsg: Type.String(),
  result: Type.Object({ list: Type.Array(Type.Object({ symbol: Type.String(), lastPrice: Type.String(), price24hPcnt: Type.String() })) }),
  time: Type.Integer(),
});
export type BybitTickers = Type.Static<typeof BybitTickers>;
