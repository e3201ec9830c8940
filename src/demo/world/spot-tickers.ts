import { roundPrice, type Market } from '../market.js';
import { perturbedUsd } from '../perturb.js';
import type { DemoWorld } from '../world.js';
import { Reply, type Route, type WorldRequest } from './types.js';
import { coinBySymbol, coins } from './coins.js';

/**
 * The spot tickers crypto-price corroborates with, read from the world's one price path per pair and answered in each
 * exchange's format (src/upstream/formats/spot-tickers.ts, binance-ticker.ts): Binance, Kraken, Coinbase, OKX, Bybit.
 * SVC_DEMO_PERTURB makes any of them wrong (src/demo/perturb.ts).
 */
const DAY_S = 86_400;

interface Quoted {
  price: number;
  /** The instant the exchange claims for it (Unix s). */
  at: number;
  /** 24 h change as a fraction. */
  change: number;
  /** 24 h volume in the base asset. */
  volume: number;
}

/** The pair's price as `host` shows it at the request's instant (perturbed when SVC_DEMO_PERTURB says so). */
function quoted(world: DemoWorld, host: string, base: string, quote: string, t: number): Quoted {
  const market = world.market;
  const path = (s: number) => market.price(`pair:${base}/${quote}`, s);
  const { price, at } = perturbedUsd(market, world.perturbation(host), path, t);
  const coin = coinBySymbol(market, base);
  const volume = coin ? coin.supply * 0.002 : 1000;
  return { price: roundPrice(price), at, change: path(at) / path(at - DAY_S) - 1, volume: Math.round(volume * 1e4) / 1e4 };
}

/** Every coin of the world that trades against `quote` (not the quote itself). */
const basesFor = (market: Market, quote: string) =>
  coins(market)
    .filter((c) => c.symbol !== quote && !c.stable)
    .map((c) => c.symbol);

function binanceTicker(req: WorldRequest, world: DemoWorld): unknown {
  const symbols = JSON.parse(req.params.get('symbols') ?? `["${req.params.get('symbol') ?? ''}"]`) as string[];
  const known = symbols.filter((s) => s.endsWith('USDT') && coinBySymbol(world.market, s.slice(0, -4)));
  if (known.length < symbols.length) return new Reply(400, { code: -1121, msg: 'Invalid symbol.' });
  return known.map((symbol) => {
    const q = quoted(world, 'binance', symbol.slice(0, -4), 'USDT', req.nowS);
    const open = q.price / (1 + q.change);
    return {
      symbol,
      priceChange: (q.price - open).toFixed(8),
      priceChangePercent: (q.change * 100).toFixed(3),
      lastPrice: q.price.toFixed(8),
      openPrice: open.toFixed(8),
      volume: q.volume.toFixed(8),
      quoteVolume: (q.volume * q.price).toFixed(8),
      openTime: (q.at - DAY_S) * 1000,
      closeTime: q.at * 1000 + 999,
    };
  });
}

/** Kraken's legacy assets keep their X/Z-prefixed pair names in answers (`XXBTZUSD`); newer ones do not (`SOLUSD`). */
const krakenName = (asset: string) => (['XBT', 'ETH', 'LTC', 'XRP'].includes(asset) ? `X${asset}ZUSD` : `${asset}USD`);

function krakenTicker(req: WorldRequest, world: DemoWorld): unknown {
  const pairs = (req.params.get('pair') ?? '').toUpperCase().split(',');
  const bases = pairs.map((p) => p.replace(/USD$/, '').replace(/^XBT$/, 'BTC'));
  if (bases.some((b, i) => !pairs[i]!.endsWith('USD') || !coinBySymbol(world.market, b))) return { error: ['EQuery:Unknown asset pair'] };
  const result = Object.fromEntries(
    bases.map((base) => {
      const q = quoted(world, 'kraken', base, 'USD', req.nowS);
      const last = q.price.toString();
      const open = roundPrice(q.price / (1 + q.change)).toString();
      const lot = q.volume.toString();
      return [
        krakenName(base === 'BTC' ? 'XBT' : base),
        { a: [last, '1', '1.000'], b: [last, '1', '1.000'], c: [last, '0.01'], v: [lot, lot], o: open },
      ];
    }),
  );
  return { error: [], result };
}

function coinbaseTicker(req: WorldRequest, world: DemoWorld): unknown {
  const base = req.match[1]!;
  if (!coinBySymbol(world.market, base)) return new Reply(404, { message: 'NotFound' });
  const q = quoted(world, 'coinbase-exchange', base, 'USD', req.nowS);
  const price = q.price.toString();
  return {
    ask: price,
    bid: price,
    volume: q.volume.toString(),
    trade_id: req.nowS,
    price,
    size: '0.01',
    time: new Date(q.at * 1000).toISOString(),
  };
}

function okxTickers(req: WorldRequest, world: DemoWorld): unknown {
  if (req.params.get('instType') !== 'SPOT') return { code: '51000', msg: 'Parameter instType error', data: [] };
  const data = basesFor(world.market, 'USDT').map((base) => {
    const q = quoted(world, 'okx', base, 'USDT', req.nowS);
    const last = q.price.toString();
    const [open, ts] = [roundPrice(q.price / (1 + q.change)).toString(), String(q.at * 1000)];
    return { instType: 'SPOT', instId: `${base}-USDT`, last, askPx: last, bidPx: last, open24h: open, vol24h: q.volume.toString(), ts };
  });
  return { code: '0', msg: '', data };
}

function bybitTickers(req: WorldRequest, world: DemoWorld): unknown {
  if (req.params.get('category') !== 'spot') return { retCode: 10001, retMsg: 'Illegal category', result: {}, time: req.nowS * 1000 };
  const quotes = basesFor(world.market, 'USDT').map((base) => [base, quoted(world, 'bybit', base, 'USDT', req.nowS)] as const);
  const list = quotes.map(([base, q]) => ({
    symbol: `${base}USDT`,
    lastPrice: q.price.toString(),
    price24hPcnt: q.change.toFixed(4),
    volume24h: q.volume.toString(),
  }));
  // One time stamps the whole answer: a stale perturbation moves it for every pair.
  return { retCode: 0, retMsg: 'OK', result: { category: 'spot', list }, retExtInfo: {}, time: (quotes[0]?.[1].at ?? req.nowS) * 1000 };
}

export const SPOT_TICKER_ROUTES: Route[] = [
  { host: 'binance', path: /^\/api\/v3\/ticker\/24hr$/, answer: binanceTicker },
  { host: 'kraken', path: /^\/0\/public\/Ticker$/, answer: krakenTicker },
  { host: 'coinbase-exchange', path: /^\/products\/([A-Z0-9]+)-USD\/ticker$/, answer: coinbaseTicker },
  { host: 'okx', path: /^\/api\/v5\/market\/tickers$/, answer: okxTickers },
  { host: 'bybit', path: /^\/v5\/market\/tickers$/, answer: bybitTickers },
];
