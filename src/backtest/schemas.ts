import Type from 'typebox';
import { FreeFlag, StringEnum } from '../core/schemas.js';
import { PRICES } from '../payments/pricing.js';
import { TierParam } from '../payments/tier.js';
import { INTERVALS } from '../core/candles.js';
import { MaxTokensParam, PageInfoSchema } from '../data/answer-pages.js';
import { BACKTEST_TYPES, intervalsOf } from './providers/index.js';
import { FREE_CANDLES, PAID_CANDLES } from './service.js';

/** 2100-01-01T00:00:00Z: past it a Unix-seconds parameter is a typo or an attack, and Date math would overflow. */
const LATEST_UNIX_S = 4_102_444_800;

const Candle = Type.Object(
  {
    t: Type.Integer({ description: 'open time, Unix seconds' }),
    o: Type.Number({ description: 'open price, quote currency (USD/USDT, or the forex quote)' }),
    h: Type.Number({ description: 'high price' }),
    l: Type.Number({ description: 'low price' }),
    c: Type.Number({ description: 'close price' }),
    v: Type.Number({ description: 'volume in base units (0 for forex)' }),
  },
  { title: 'Candle', description: 'One OHLCV candle' },
);

/** What GET /api/v1/backtest answers, per type and tier. */
export const BACKTEST_DESCRIPTION =
  `Candles \`{t,o,h,l,c,v}\` (t = open time, Unix s) sorted ascending, one per t, never after \`to\` or after now (a candle still forming is left out). ` +
  'q takes the forms the type takes everywhere (catalog `q_forms`; entity ids too), one instrument per call; a q no source knows is a 404 ' +
  '`unknown_symbol` with `details.suggestions`. ' +
  `crypto-price: Binance klines (q = bitcoin, BTC or BTCUSDT; ${intervalsOf('crypto-price').join(', ')}). ` +
  `stock-quote: Yahoo charts (${intervalsOf('stock-quote').join(', ')}). forex (q = EUR:USD): 1d from ECB reference rates via Frankfurter ` +
  `(o = h = l = c = the day's rate, v = 0), 1m–1h from Yahoo's EURUSD=X charts. ` +
  'No source serves 4h stock or forex candles: svc builds them from 1h candles in UTC buckets (00:00, 04:00, 08:00 …; open of the first, ' +
  'close of the last, highest high, lowest low, summed volume) and says so in `source_interval` (`1h`) and `aggregation`. ' +
  `Yahoo serves 1m bars for the last 30 days, 5m and 15m ` +
  'for 60 days and 1h for 730 days: a `from` earlier than that is a 400 (rule `lookback`, with `earliest`). ' +
  `Unpaid (or free=1): the last ${FREE_CANDLES} candles that exist in the range (across nights, weekends and holidays), with a \`_cursor\` for the whole range that a paid call continues. Paid ` +
  `(${PRICES.backtest} USDC atomic units via X-Payment or PAYMENT-SIGNATURE, or a pass): up to ${PAID_CANDLES} per call; \`tier=paid\` answers 402 until paid, so stock x402 clients can pay; a longer range continues with \`cursor=<_cursor>\` ` +
  '(svc-bt-cur:…) and the same type, q, interval and to. A present but invalid X-Payment is a 402. `max_tokens` asks for the answer in ' +
  'pages (`_page`; the rest free at GET /api/v1/answer-page for 24 h): a retry with the same payment gets the same first page.';

export const BacktestQuery = Type.Object({
  type: StringEnum(BACKTEST_TYPES),
  q: Type.String({ minLength: 1, maxLength: 40, examples: ['BTC'] }),
  from: Type.Integer({
    minimum: 0,
    maximum: LATEST_UNIX_S,
    examples: [1735689600],
    description: 'Unix seconds (at most 4102444800, 2100-01-01)',
  }),
  to: Type.Integer({
    minimum: 1,
    maximum: LATEST_UNIX_S,
    examples: [1738368000],
    description: 'Unix seconds (at most 4102444800, 2100-01-01)',
  }),
  interval: Type.Optional(StringEnum(INTERVALS, { default: '1h', examples: ['1d'] })),
  cursor: Type.Optional(
    Type.String({ maxLength: 1024, description: 'continue a range (svc-bt-cur:…) with the same type, q, interval and to' }),
  ),
  free: FreeFlag,
  tier: TierParam,
  max_tokens: MaxTokensParam,
});

export const BacktestAnswer = Type.Object({
  type: Type.String(),
  q: Type.String(),
  interval: Type.String(),
  count: Type.Integer(),
  paid: Type.Boolean(),
  source: Type.String(),
  source_interval: Type.String({ description: 'the interval the source served; differs from `interval` when svc aggregated' }),
  aggregation: Type.Optional(Type.String({ description: 'how svc built the candles from `source_interval` candles, when it did' })),
  as_of: Type.Integer(),
  market_state: Type.Optional(
    StringEnum(['open', 'pre', 'post', 'closed'], {
      description: "stocks and forex: the market's state now, from Yahoo's trading period (absent for crypto, or when Yahoo does not say)",
    }),
  ),
  data: Type.Array(Candle),
  _cursor: Type.Optional(Type.String()),
  _page: Type.Optional(PageInfoSchema),
});
