import Type from 'typebox';
import { invalidQ } from '../core/errors.js';
import { noData, UpstreamError } from '../upstream/errors.js';
import type { HostName } from '../upstream/hosts.js';
import { defineSource, type Row } from './define.js';

const EXCHANGES = { binance: 'binance', kraken: 'kraken', coinbase: 'coinbase-exchange' } as const satisfies Record<string, HostName>;
type Exchange = keyof typeof EXCHANGES;
const QUOTES = ['USDT', 'USDC', 'USD', 'EUR', 'BTC'] as const;
const DEPTH = 10;

export interface BookQuery {
  exchange: Exchange;
  base: string;
  quote: string;
}

/** `binance:BTCUSDT`, `kraken:BTC/USD`, `coinbase:BTC-USD` → exchange, base, quote. */
export function parseBookQ(q: string): BookQuery {
  const expected = `<exchange>:<trading_pair> with exchange in ${Object.keys(EXCHANGES).join(', ')}`;
  const [exchange = '', pair = '', ...rest] = q.split(':');
  if (rest.length || !Object.hasOwn(EXCHANGES, exchange.toLowerCase())) throw invalidQ(expected, 'binance:BTCUSDT');
  const upper = pair.toUpperCase();
  const split =
    upper.match(/^([A-Z0-9]{2,10})[-/_]([A-Z0-9]{2,10})$/) ??
    QUOTES.map((qt) => upper.match(new RegExp(`^([A-Z0-9]{2,10})(${qt})$`))).find(Boolean);
  if (!split) throw invalidQ(expected, 'binance:BTCUSDT', `cannot read a base and quote currency from "${pair}"`);
  return { exchange: exchange.toLowerCase() as Exchange, base: split[1]!, quote: split[2]! };
}

type Level = [string, string, ...unknown[]];
const Levels = Type.Array(Type.Array(Type.Union([Type.String(), Type.Number()]), { minItems: 2 }));
const BinanceDepth = Type.Object({ bids: Levels, asks: Levels });
const KrakenDepth = Type.Object({
  error: Type.Array(Type.String()),
  result: Type.Optional(Type.Record(Type.String(), Type.Object({ bids: Levels, asks: Levels }))),
});
const CoinbaseBook = Type.Object({ bids: Levels, asks: Levels });

/** One row per level (side, level, price, size) plus the book summary on every row; `quote` is the currency of the book served. */
export function bookRows(q: BookQuery, pair: string, quote: string, bids: Level[], asks: Level[]): Row[] {
  const side = (name: 'bid' | 'ask', levels: Level[]) =>
    levels.slice(0, DEPTH).map(([price, size], i) => ({ side: name, level: i + 1, price: Number(price), size: Number(size) }));
  const rows = [...side('bid', bids), ...side('ask', asks)];
  const bestBid = rows.find((r) => r.side === 'bid')?.price;
  const bestAsk = rows.find((r) => r.side === 'ask')?.price;
  if (bestBid === undefined || bestAsk === undefined) throw noData(`empty order book for ${pair}`);
  const spread = Math.round((bestAsk - bestBid) * 1e8) / 1e8;
  return rows.map((r) => ({
    pair,
    base: q.base,
    quote,
    ...r,
    best_bid: bestBid,
    best_ask: bestAsk,
    spread,
    mid: (bestBid + bestAsk) / 2,
  }));
}

const krakenAsset = (a: string) => (a === 'BTC' ? 'XBT' : a);

/**
 * Rows: pair (as the exchange that answered spells it), base, quote (the currency of the book served, which can differ from
 * the one asked: Coinbase answers USDT pairs with its USD book), side, level, price, size, best_bid, best_ask, spread, mid.
 * The requested exchange first, then the others.
 */
export default defineSource<BookQuery>({
  type: 'order-book',
  categories: ['crypto', 'trader'],
  qShape: '<exchange>:<trading_pair>',
  example: 'binance:BTCUSDT',
  desc: '`<exchange>:<trading_pair>`; top 10 bids and asks',
  parseQ: parseBookQ,
  keyOf: (q) => `${q.exchange}:${q.base}-${q.quote}`,
  namesInstrument: true,
  instrumentOf: (key) => parseBookQ(key).base,
  ttlSeconds: 5,
  deadlineMs: 4000,
  entityQ: (e) => (e.ids.binance && (e.type === 'crypto' || e.type === 'stablecoin') ? `binance:${e.ids.binance}` : undefined),
  order: (q) => [EXCHANGES[q.exchange], ...Object.values(EXCHANGES).filter((h) => h !== EXCHANGES[q.exchange])],
  upstreams: {
    binance: async (q, { http, deadline }) => {
      const pair = `${q.base}${q.quote}`;
      const book = await http.json<{ bids: Level[]; asks: Level[] }>('/api/v3/depth', BinanceDepth, {
        deadline,
        query: { symbol: pair, limit: DEPTH },
      });
      return bookRows(q, pair, q.quote, book.bids, book.asks);
    },
    kraken: async (q, { http, deadline }) => {
      const pair = `${krakenAsset(q.base)}${q.quote}`;
      const raw = await http.json<Type.Static<typeof KrakenDepth>>('/0/public/Depth', KrakenDepth, {
        deadline,
        query: { pair, count: DEPTH },
      });
      // Kraken answers HTTP 200 with an error list; the book is keyed by its own pair name (XXBTZUSD).
      if (raw.error.length)
        throw new UpstreamError(
          raw.error.some((e) => /Unknown asset pair/.test(e)) ? 'no_data' : 'upstream_error',
          `Kraken: ${raw.error.join(', ')}`,
        );
      const book = Object.values(raw.result ?? {})[0];
      if (!book) throw noData(`Kraken has no ${pair} book`);
      return bookRows(q, pair, q.quote, book.bids as Level[], book.asks as Level[]);
    },
    // Coinbase's dollar books are in USD: a USDT pair is answered with the USD book, and its rows say USD.
    'coinbase-exchange': async (q, { http, deadline }) => {
      const quote = q.quote === 'USDT' ? 'USD' : q.quote;
      const pair = `${q.base}-${quote}`;
      const book = await http.json<{ bids: Level[]; asks: Level[] }>(`/products/${pair}/book`, CoinbaseBook, {
        deadline,
        query: { level: 2 },
      });
      return bookRows(q, pair, quote, book.bids, book.asks);
    },
  },
});
