import { BybitTickers, CoinbaseTicker, KrakenTicker, OkxTickers } from '../../upstream/formats/spot-tickers.js';
import { noData, refusesQuery, UpstreamError } from '../../upstream/errors.js';
import type { Fetcher, Row } from '../define.js';
import { binancePairOf } from './entities.js';
import { settledBounded, shared } from './fan-out.js';

/**
 * crypto-price's exchange sources (issue 37): each answers rows `{coin, price, quote, as_of?, change_24h_pct}` for the
 * coins it lists. Kraken and Coinbase quote USD (the rows carry `usd` too); OKX and Bybit quote USDT, which is not
 * USD: their rows say so and corroboration keeps them apart (docs/corroboration.md).
 */
/** Requests made per coin (Coinbase's products, Kraken's lone pairs) go this many at once: Coinbase allows 10/s. */
export const PER_COIN_IN_FLIGHT = 5;

/** The coins with an exchange symbol (the entity graph's Binance pair without its USDT), in the asked order. */
const withBase = (ids: string[]) =>
  ids.flatMap((coin) => {
    const base = binancePairOf(coin)?.replace(/USDT$/, '');
    return base ? [{ coin, base }] : [];
  });

const pct = (open: number, last: number) => (open > 0 ? Math.round((last / open - 1) * 1e6) / 1e4 : null);
const usdRow = (coin: string, price: number) => ({ coin, usd: price, price, quote: 'USD' });

function atLeastOne(rows: Row[], exchange: string): Row[] {
  if (rows.length === 0) throw noData(`${exchange} lists none of these coins`);
  return rows;
}

const krakenAsset = (base: string) => (base === 'BTC' ? 'XBT' : base);

type KrakenCoin = { coin: string; asset: string };

/** Kraken's tickers of `coins`, keyed by its pair names; `no_data` when it lists none of them. */
async function krakenTickers(coins: KrakenCoin[], { http, deadline }: Parameters<Fetcher<string[]>>[1]) {
  const query = { pair: coins.map((c) => `${c.asset}USD`).join(',') };
  const raw = await http.json<KrakenTicker>('/0/public/Ticker', KrakenTicker, { deadline, query });
  if (!raw.error.length) return raw.result ?? {};
  const unknown = raw.error.some((e) => /Unknown asset pair/.test(e));
  throw new UpstreamError(unknown ? 'no_data' : 'upstream_error', `Kraken: ${raw.error.join(', ')}`);
}

/**
 * One unknown pair fails Kraken's whole batch: each coin is then asked alone (a few at once), so only the coins Kraken
 * does not list go without its price.
 */
async function krakenEach(coins: KrakenCoin[], ctx: Parameters<Fetcher<string[]>>[1]) {
  const answers = await settledBounded(coins, PER_COIN_IN_FLIGHT, (c) => krakenTickers([c], ctx));
  const failure = answers.find((a) => a.status === 'rejected' && !(a.reason instanceof UpstreamError && a.reason.reason === 'no_data'));
  if (failure?.status === 'rejected') throw failure.reason;
  return Object.assign({}, ...answers.map((a) => (a.status === 'fulfilled' ? a.value : {}))) as NonNullable<KrakenTicker['result']>;
}

/** Kraken names pairs its own way (`XXBTZUSD` for XBTUSD, `SOLUSD` for newer ones): both forms are looked up. */
export const kraken: Fetcher<string[]> = async (ids, ctx) => {
  const coins = withBase(ids).map((c) => ({ ...c, asset: krakenAsset(c.base) }));
  if (coins.length === 0) throw noData('none of these coins has an exchange symbol');
  const result = await krakenTickers(coins, ctx).catch((e: unknown) => {
    if (coins.length > 1 && e instanceof UpstreamError && e.reason === 'no_data') return krakenEach(coins, ctx);
    throw e;
  });
  const rows = coins.flatMap(({ coin, asset }) => {
    const t = result[`${asset}USD`] ?? result[`X${asset}ZUSD`];
    const last = Number(t?.c[0]);
    return t && last > 0 ? [{ ...usdRow(coin, last), change_24h_pct: pct(Number(t.o), last) }] : [];
  });
  return atLeastOne(rows, 'Kraken');
};

/** Coinbase Exchange: one USD product per coin, each shared with concurrent queries; a 404: it does not list that coin. */
export const coinbase: Fetcher<string[]> = async (ids, { http, deadline, config }) => {
  const coins = withBase(ids);
  const answers = await settledBounded(coins, PER_COIN_IN_FLIGHT, ({ base }) => {
    const path = `/products/${base}-USD/ticker`;
    return shared(config, `${http.name}${path}`, () => http.json<CoinbaseTicker>(path, CoinbaseTicker, { deadline }));
  });
  const rows = coins.flatMap(({ coin }, i) => {
    const answer = answers[i]!;
    if (answer.status === 'rejected' || 'message' in answer.value) return [];
    return [{ ...usdRow(coin, Number(answer.value.price)), as_of: Math.floor(Date.parse(answer.value.time) / 1000) }];
  });
  // A product Coinbase does not have is a 404; any other failure is the host's, and says more than "not listed".
  const hostFailure = answers.find((a) => a.status === 'rejected' && !(a.reason instanceof UpstreamError && refusesQuery(a.reason)));
  if (rows.length === 0 && hostFailure?.status === 'rejected') throw hostFailure.reason;
  return atLeastOne(rows, 'Coinbase');
};

const usdtRow = (coin: string, price: number, change: number | null, asOfMs: number) => ({
  coin,
  price,
  quote: 'USDT',
  change_24h_pct: change,
  as_of: Math.floor(asOfMs / 1000),
});

/** OKX: every spot ticker in one answer, `BTC-USDT` pairs. */
export const okx: Fetcher<string[]> = async (ids, { http, deadline }) => {
  const raw = await http.json<OkxTickers>('/api/v5/market/tickers', OkxTickers, { deadline, query: { instType: 'SPOT' } });
  if (raw.code !== '0') throw new UpstreamError('upstream_error', `OKX: ${raw.msg || raw.code}`);
  const byPair = new Map(raw.data.map((t) => [t.instId, t]));
  const rows = withBase(ids).flatMap(({ coin, base }) => {
    const t = byPair.get(`${base}-USDT`);
    return t ? [usdtRow(coin, Number(t.last), pct(Number(t.open24h), Number(t.last)), Number(t.ts))] : [];
  });
  return atLeastOne(rows, 'OKX');
};

/** Bybit: every spot ticker in one answer, `BTCUSDT` pairs; the answer's `time` stamps them all. */
export const bybit: Fetcher<string[]> = async (ids, { http, deadline }) => {
  const raw = await http.json<BybitTickers>('/v5/market/tickers', BybitTickers, { deadline, query: { category: 'spot' } });
  if (raw.retCode !== 0) throw new UpstreamError('upstream_error', `Bybit: ${raw.retMsg}`);
  const bySymbol = new Map(raw.result.list.map((t) => [t.symbol, t]));
  const rows = withBase(ids).flatMap(({ coin, base }) => {
    const t = bySymbol.get(`${base}USDT`);
    return t ? [usdtRow(coin, Number(t.lastPrice), Math.round(Number(t.price24hPcnt) * 1e6) / 1e4, raw.time)] : [];
  });
  return atLeastOne(rows, 'Bybit');
};
