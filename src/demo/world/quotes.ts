import { roundSig, roundTo } from '../../core/numbers.js';
import { roundPrice } from '../market.js';
import { perturbedUsd } from '../perturb.js';
import type { DemoWorld } from '../world.js';
import { Reply, type Route, type WorldRequest } from './types.js';
import { ECB_CURRENCIES, isListed } from './listings.js';
import { lastSession, lastTrade, sessionBars } from './sessions.js';

/**
 * The sources stock-quote and forex corroborate Yahoo with, read from the world's one path per asset at the last trade
 * (issue 37): Finnhub's quote, Stooq's quote CSV and ExchangeRate-API's daily rates. SVC_DEMO_PERTURB makes any of
 * them wrong (src/demo/perturb.ts); an unlisted symbol falls through to the upstream's "unknown" answer (listings.ts).
 */
const DAY_S = 86_400;
/** Stooq's index symbols for the world's Yahoo indices. */
const STOOQ_INDEX: Record<string, string> = { '^SPX': '^GSPC', '^NDQ': '^IXIC', '^NDX': '^NDX', '^DJI': '^DJI' };

/** The listing's last trade as `host` shows it, with that session's daily bar and the previous session's close. */
function lastQuote(world: DemoWorld, host: string, asset: string, nowS: number) {
  const market = world.market;
  const shown = perturbedUsd(market, world.perturbation(host), (s) => market.price(asset, s), lastTrade(nowS));
  const session = lastSession(shown.at);
  const bar = sessionBars(market, asset, DAY_S, session.open, session.open, nowS).at(-1);
  const previousClose = roundPrice(market.price(asset, lastSession(session.open - 1).close));
  return { price: roundPrice(shown.price), at: shown.at, bar, previousClose };
}

function finnhubQuote(req: WorldRequest, world: DemoWorld): unknown {
  const symbol = req.params.get('symbol') ?? '';
  if (!isListed(symbol)) return undefined;
  const { price, at, bar, previousClose } = lastQuote(world, 'finnhub', `eq:${symbol}`, req.nowS);
  const [d, dp] = [roundTo(price - previousClose, 4), roundTo((price / previousClose - 1) * 100, 4)];
  return { c: price, d, dp, h: bar?.h ?? price, l: bar?.l ?? price, o: bar?.o ?? price, pc: previousClose, t: at };
}

/** Stooq stamps its quotes in Warsaw wall-clock time. */
const warsaw = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw', hourCycle: 'h23', dateStyle: 'short', timeStyle: 'medium' });

function stooqQuote(req: WorldRequest, world: DemoWorld): unknown {
  const symbol = (req.params.get('s') ?? '').toUpperCase();
  const ticker = symbol.startsWith('^') ? STOOQ_INDEX[symbol] : symbol.replace(/\.US$/, '');
  if (!ticker || !isListed(ticker)) return undefined;
  const asset = ticker.startsWith('^') ? `idx:${ticker}` : `eq:${ticker}`;
  const { price, at, bar } = lastQuote(world, 'stooq', asset, req.nowS);
  const [date, time] = warsaw.format(new Date(at * 1000)).split(' ');
  const line = [
    symbol,
    date,
    time,
    bar?.o ?? price,
    bar?.h ?? price,
    bar?.l ?? price,
    price,
    ticker.startsWith('^') ? 'N/D' : Math.round(bar?.v ?? 0),
  ];
  return new Reply(200, `Symbol,Date,Time,Open,High,Low,Close,Volume\r\n${line.join(',')}\r\n`);
}

/** ExchangeRate-API's open access: every rate against `base`, updated once a day at 00:02 UTC. */
function openErLatest(req: WorldRequest, world: DemoWorld): unknown {
  const base = req.match[1]!;
  if (!ECB_CURRENCIES.includes(base)) return { result: 'error', 'error-type': 'unsupported-code' };
  const market = world.market;
  const updated = Math.floor((req.nowS - 151) / DAY_S) * DAY_S + 151;
  const rateAt = (symbol: string) =>
    perturbedUsd(market, world.perturbation('open-er-api'), (s) => market.usd(base, s) / market.usd(symbol, s), updated).price;
  const rates = Object.fromEntries(ECB_CURRENCIES.map((s) => [s, s === base ? 1 : roundSig(rateAt(s), 6)]));
  const utc = (s: number) => new Date(s * 1000).toUTCString().replace('GMT', '+0000');
  return {
    result: 'success',
    provider: 'https://www.exchangerate-api.com',
    documentation: 'https://www.exchangerate-api.com/docs/free',
    terms_of_use: 'https://www.exchangerate-api.com/terms_of_use',
    time_last_update_unix: updated,
    time_last_update_utc: utc(updated),
    time_next_update_unix: updated + DAY_S,
    time_next_update_utc: utc(updated + DAY_S),
    time_eol_unix: 0,
    base_code: base,
    rates,
  };
}

export const QUOTE_ROUTES: Route[] = [
  { host: 'finnhub', path: /^\/api\/v1\/quote$/, answer: finnhubQuote },
  { host: 'stooq', path: /^\/q\/l\/$/, answer: stooqQuote },
  { host: 'open-er-api', path: /^\/v6\/latest\/([A-Z]{3})$/, answer: openErLatest },
];
