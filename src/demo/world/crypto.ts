import { roundSig, roundTo } from '../../core/numbers.js';
import { roundPrice, type Market } from '../market.js';
import { hash32, uniform } from '../random.js';
import { perturbedUsd } from '../perturb.js';
import type { DemoWorld } from '../world.js';
import { Reply, type Route, type WorldRequest } from './types.js';
import { coinByContract, coinById, coinBySymbol, coins, splitPair, type Coin } from './coins.js';

/**
 * Crypto markets of the demo world, all read from the one price path per coin: CoinGecko prices, markets and trending
 * coins, Binance spot klines and books, Kraken and Coinbase books, Binance perpetual funding and mark prices. Shapes
 * follow each API's documentation and the fixtures in src/sources/fixtures.
 */
const DAY_S = 86_400;
const FUNDING_EVERY_S = 8 * 3600;
/** CoinGecko refreshes its prices about every 20 s. */
const COINGECKO_EVERY_S = 20;
const STEP_S: Record<string, number> = {
  '1m': 60,
  '3m': 180,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '2h': 7200,
  '4h': 14_400,
  '6h': 21_600,
  '12h': 43_200,
  '1d': DAY_S,
};

const usd = (market: Market, coin: Coin, t: number) => market.usd(coin.symbol, t);
/** The coin's 24 h traded volume in USD: a seeded 2–8 % of its market cap per day. */
const volume24h = (market: Market, coin: Coin, t: number) =>
  usd(market, coin, t) * coin.supply * (0.02 + 0.06 * uniform(market.seed, `turnover:${coin.id}@${Math.floor(t / 3600)}`));

function simplePrice(req: WorldRequest, world: DemoWorld): unknown {
  const market = world.market;
  const at = Math.floor(req.nowS / COINGECKO_EVERY_S) * COINGECKO_EVERY_S;
  const has = (flag: string) => req.params.get(flag) === 'true';
  const ids = (req.params.get('ids') ?? '').split(',').map((s) => s.trim().toLowerCase());
  const known = ids.flatMap((id) => {
    const coin = coinById(market, id);
    return coin ? [coin] : [];
  });
  return Object.fromEntries(
    known.map((coin) => {
      const price = usd(market, coin, at);
      const shown = perturbedUsd(market, world.perturbation('coingecko'), (t) => usd(market, coin, t), at);
      return [
        coin.id,
        {
          usd: roundPrice(shown.price),
          ...(has('include_market_cap') ? { usd_market_cap: roundTo(price * coin.supply, 2) } : {}),
          ...(has('include_24hr_vol') ? { usd_24h_vol: roundTo(volume24h(market, coin, at), 2) } : {}),
          ...(has('include_24hr_change') ? { usd_24h_change: roundTo(market.change(`crypto:${coin.symbol}`, at) * 100, 4) } : {}),
          ...(has('include_last_updated_at') ? { last_updated_at: shown.at } : {}),
        },
      ];
    }),
  );
}

function coinMarkets(req: WorldRequest, market: Market): unknown {
  const at = Math.floor(req.nowS / COINGECKO_EVERY_S) * COINGECKO_EVERY_S;
  const perPage = Math.min(Number(req.params.get('per_page') ?? 100), 250);
  const page = Math.max(1, Number(req.params.get('page') ?? 1));
  const ranked = coins(market)
    .map((coin) => ({ coin, price: usd(market, coin, at) }))
    .sort((a, b) => b.price * b.coin.supply - a.price * a.coin.supply);
  return ranked.slice((page - 1) * perPage, page * perPage).map(({ coin, price }, i) => {
    const before = usd(market, coin, at - DAY_S);
    const day = market.candle(`crypto:${coin.symbol}`, at - DAY_S, DAY_S, at);
    return {
      id: coin.id,
      symbol: coin.symbol.toLowerCase(),
      name: coin.name,
      current_price: roundPrice(price),
      market_cap: Math.round(price * coin.supply),
      market_cap_rank: (page - 1) * perPage + i + 1,
      total_volume: Math.round(volume24h(market, coin, at)),
      high_24h: day.h,
      low_24h: day.l,
      price_change_24h: roundPrice(price - before),
      price_change_percentage_24h: roundTo((price / before - 1) * 100, 4),
      circulating_supply: coin.supply,
      last_updated: new Date(at * 1000).toISOString(),
    };
  });
}

/** Trending coins: the fixture's list, priced by the world. */
function trending(req: WorldRequest, world: DemoWorld): unknown {
  const body = world.template<{ coins: { item: { symbol: string; data: Record<string, unknown> } }[] }>('coingecko', req.path, req.nowS);
  const btc = world.market.usd('BTC', req.nowS);
  for (const { item } of body.coins) {
    const price = world.market.usd(item.symbol.toUpperCase(), req.nowS);
    Object.assign(item.data, {
      price: roundPrice(price),
      price_btc: roundSig(price / btc, 6).toString(),
      price_change_percentage_24h: { usd: roundTo(world.market.change(`crypto:${item.symbol.toUpperCase()}`, req.nowS) * 100, 2) },
    });
  }
  return body;
}

function tokenPrice(req: WorldRequest, market: Market): unknown {
  const addresses = (req.params.get('contract_addresses') ?? '').toLowerCase().split(',');
  return Object.fromEntries(
    addresses.flatMap((address) => {
      const coin = coinByContract(market, req.match[1]!, address);
      return coin ? [[address, { usd: roundPrice(usd(market, coin, req.nowS)) }]] : [];
    }),
  );
}

const knownPair = (market: Market, pair: string) => {
  const { base, quote } = splitPair(pair);
  return coinBySymbol(market, base) && (coinBySymbol(market, quote) || ['USD', 'EUR'].includes(quote)) ? { base, quote } : undefined;
};
const invalidSymbol = () => new Reply(400, { code: -1121, msg: 'Invalid symbol.' });

function klines(req: WorldRequest, market: Market): unknown {
  const pair = knownPair(market, req.params.get('symbol') ?? '');
  const step = STEP_S[req.params.get('interval') ?? ''];
  if (!pair) return invalidSymbol();
  if (!step) return new Reply(400, { code: -1120, msg: 'Invalid interval.' });
  const limit = Math.min(Number(req.params.get('limit') ?? 500), 1000);
  const end = Math.min(req.params.has('endTime') ? Number(req.params.get('endTime')) / 1000 : req.nowS, req.nowS);
  const start = req.params.has('startTime')
    ? Number(req.params.get('startTime')) / 1000
    : Math.floor(end / step) * step - (limit - 1) * step;
  const bars = market.bars(`pair:${pair.base}/${pair.quote}`, step, start, end, { nowS: req.nowS }).slice(0, limit);
  return bars.map((b) => [
    b.t * 1000,
    `${b.o}`,
    `${b.h}`,
    `${b.l}`,
    `${b.c}`,
    `${b.v}`,
    (b.t + step) * 1000 - 1,
    `${roundSig(b.v * b.c, 8)}`,
    Math.round(b.v * 3),
    `${roundSig(b.v / 2, 8)}`,
    `${roundSig((b.v * b.c) / 2, 8)}`,
    '0',
  ]);
}

/** Ten levels a side around the pair's price: the best bid one tick under it, gaps and sizes seeded per second. */
export function book(market: Market, base: string, quote: string, t: number, depth = 10): { bids: string[][]; asks: string[][] } {
  const price = market.price(`pair:${base}/${quote}`, t);
  const tick = 10 ** (Math.floor(Math.log10(price)) - 6);
  const decimals = Math.max(0, -Math.floor(Math.log10(tick)));
  const bestBid = Math.floor(price / tick) * tick;
  const side = (sign: 1 | -1, first: number) => {
    let level = first;
    return Array.from({ length: depth }, (_, i) => {
      if (i > 0) level += sign * tick * (1 + (hash32(market.seed, `gap:${base}${quote}@${t}/${sign}${i}`) % 40));
      const notional = 2_000 * Math.exp(4 * uniform(market.seed, `size:${base}${quote}@${t}/${sign}${i}`));
      return [level.toFixed(decimals), roundSig(notional / price, 4).toString()];
    });
  };
  return { bids: side(-1, bestBid), asks: side(1, bestBid + tick) };
}

function binanceDepth(req: WorldRequest, market: Market): unknown {
  const pair = knownPair(market, req.params.get('symbol') ?? '');
  if (!pair) return invalidSymbol();
  return {
    lastUpdateId: req.nowS * 10,
    ...book(market, pair.base, pair.quote, req.nowS, Math.min(Number(req.params.get('limit') ?? 100), 100)),
  };
}

function krakenDepth(req: WorldRequest, market: Market): unknown {
  const name = (req.params.get('pair') ?? '').toUpperCase().replace(/^XBT/, 'BTC');
  const pair = knownPair(market, name);
  if (!pair) return { error: ['EQuery:Unknown asset pair'] };
  const { bids, asks } = book(market, pair.base, pair.quote, req.nowS, Number(req.params.get('count') ?? 100));
  const stamp = (levels: string[][]) => levels.map(([price, size]) => [price, size, req.nowS]);
  const key = `X${pair.base === 'BTC' ? 'XBT' : pair.base}Z${pair.quote}`;
  return { error: [], result: { [key]: { asks: stamp(asks), bids: stamp(bids) } } };
}

function coinbaseBook(req: WorldRequest, market: Market): unknown {
  const [base = '', quote = ''] = req.match[1]!.split('-');
  if (!coinBySymbol(market, base) || !['USD', 'USDT', 'USDC', 'EUR', 'BTC'].includes(quote)) return new Reply(404, { message: 'NotFound' });
  const { bids, asks } = book(market, base, quote, req.nowS);
  const orders = (levels: string[][]) => levels.map(([price, size], i) => [price, size, 1 + (i % 4)]);
  return {
    bids: orders(bids),
    asks: orders(asks),
    sequence: req.nowS * 10,
    auction_mode: false,
    auction: null,
    time: new Date(req.nowS * 1000).toISOString(),
  };
}

/** Funding settles every 8 h at the funding walk's value; the mark price sits that far above the index (spot). */
function premiumIndex(req: WorldRequest, market: Market): unknown {
  const pair = knownPair(market, req.params.get('symbol') ?? '');
  if (!pair) return invalidSymbol();
  const index = market.price(`pair:${pair.base}/${pair.quote}`, req.nowS);
  const rate = market.price(`funding:${pair.base}`, req.nowS);
  return {
    symbol: `${pair.base}${pair.quote}`,
    markPrice: roundPrice(index * (1 + rate)).toFixed(8),
    indexPrice: roundPrice(index).toFixed(8),
    estimatedSettlePrice: roundPrice(index).toFixed(8),
    lastFundingRate: rate.toFixed(8),
    interestRate: '0.00010000',
    nextFundingTime: (Math.floor(req.nowS / FUNDING_EVERY_S) + 1) * FUNDING_EVERY_S * 1000,
    time: req.nowS * 1000,
  };
}

function fundingHistory(req: WorldRequest, market: Market): unknown {
  const pair = knownPair(market, req.params.get('symbol') ?? '');
  if (!pair) return invalidSymbol();
  const last = Math.floor(req.nowS / FUNDING_EVERY_S) * FUNDING_EVERY_S;
  const limit = Math.min(Number(req.params.get('limit') ?? 100), 1000);
  return Array.from({ length: limit }, (_, i) => last - (limit - 1 - i) * FUNDING_EVERY_S).map((at) => ({
    symbol: `${pair.base}${pair.quote}`,
    fundingRate: market.price(`funding:${pair.base}`, at).toFixed(8),
    fundingTime: at * 1000,
    markPrice: roundPrice(market.price(`pair:${pair.base}/${pair.quote}`, at)).toFixed(8),
  }));
}

/**
 * OKX filled liquidation orders of BTC-USDT perpetual swaps (https://www.okx.com/docs-v5/en/#public-data-rest-api-get-liquidation-orders):
 * up to two every 30 s, a long sold or a short bought back at a bankruptcy price just past the world's price.
 */
function okxLiquidations(req: WorldRequest, market: Market): unknown {
  const family = req.params.get('instFamily') ?? 'BTC-USDT';
  const [base = 'BTC', quote = 'USDT'] = family.split('-');
  if (!coinBySymbol(market, base)) return { code: '51001', msg: 'Instrument ID does not exist', data: [] };
  const details = [];
  for (let slot = Math.floor(req.nowS / 30); details.length < Math.min(Number(req.params.get('limit') ?? 100), 100); slot--) {
    for (let i = 0; i < hash32(market.seed, `okx-liq:${family}@${slot}`) % 3; i++) {
      const at = slot * 30 + (hash32(market.seed, `okx-at:${family}@${slot}/${i}`) % 30);
      if (at > req.nowS) continue;
      const long = uniform(market.seed, `okx-side:${family}@${slot}/${i}`) < 0.5;
      const price = market.price(`pair:${base}/${quote}`, at) * (long ? 0.997 : 1.003);
      const size = 1 + (hash32(market.seed, `okx-size:${family}@${slot}/${i}`) % 400);
      details.push({
        side: long ? 'sell' : 'buy',
        posSide: long ? 'long' : 'short',
        bkPx: roundPrice(price).toString(),
        sz: String(size),
        bkLoss: '0',
        ccy: '',
        ts: String(at * 1000),
      });
    }
  }
  return {
    code: '0',
    msg: '',
    data: [{ details, instFamily: family, instId: `${family}-SWAP`, instType: 'SWAP', totalLoss: '', uly: family }],
  };
}

/**
 * Bybit's answer (HTTP 200) to a symbol it does not list; a listed one is the recorded fixture's, and a request that
 * names no symbol (every spot ticker at once) is the spot tickers' route's.
 */
function bybitUnlisted(req: WorldRequest, market: Market): unknown {
  const symbol = req.params.get('symbol');
  if (symbol === null || knownPair(market, symbol)) return undefined;
  return { retCode: 10001, retMsg: 'params error: symbol invalid', result: {}, retExtInfo: {}, time: req.nowS * 1000 };
}

export const CRYPTO_ROUTES: Route[] = [
  { host: 'bybit', path: /^\/v5\/market\/(tickers|funding\/history)$/, answer: (req, w) => bybitUnlisted(req, w.market) },
  { host: 'okx', path: /^\/api\/v5\/public\/liquidation-orders$/, answer: (req, w) => okxLiquidations(req, w.market) },
  { host: 'coingecko', path: /^\/api\/v3\/simple\/price$/, answer: simplePrice },
  { host: 'coingecko', path: /^\/api\/v3\/coins\/markets$/, answer: (req, w) => coinMarkets(req, w.market) },
  { host: 'coingecko', path: /^\/api\/v3\/search\/trending$/, answer: trending },
  { host: 'coingecko', path: /^\/api\/v3\/simple\/token_price\/([a-z0-9-]+)$/, answer: (req, w) => tokenPrice(req, w.market) },
  { host: 'binance', path: /^\/api\/v3\/klines$/, answer: (req, w) => klines(req, w.market) },
  { host: 'binance', path: /^\/api\/v3\/depth$/, answer: (req, w) => binanceDepth(req, w.market) },
  { host: 'kraken', path: /^\/0\/public\/Depth$/, answer: (req, w) => krakenDepth(req, w.market) },
  { host: 'coinbase-exchange', path: /^\/products\/([A-Z0-9]+-[A-Z0-9]+)\/book$/, answer: (req, w) => coinbaseBook(req, w.market) },
  { host: 'binance-futures', path: /^\/fapi\/v1\/premiumIndex$/, answer: (req, w) => premiumIndex(req, w.market) },
  { host: 'binance-futures', path: /^\/fapi\/v1\/fundingRate$/, answer: (req, w) => fundingHistory(req, w.market) },
];
