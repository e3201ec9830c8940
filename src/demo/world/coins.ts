import { loadDataset } from '../../entities/dataset.js';
import type { Market } from '../market.js';
import { own } from '../random.js';

/**
 * The coins of the demo world: the entity graph's crypto assets and stablecoins (CoinGecko id, symbol, name, token
 * contracts) with a circulating supply, so market caps follow the price. Supplies of BTC, ETH and the stablecoins are
 * round figures of their real size; the others fall with rank.
 */
export interface Coin {
  id: string;
  symbol: string;
  name: string;
  stable: boolean;
  supply: number;
  contracts: Record<string, string>;
}

const SUPPLY: Record<string, number> = {
  BTC: 19_950_000, ETH: 120_700_000, USDT: 186e9, USDC: 76e9, DAI: 5e9, USDE: 9e9, FDUSD: 1.5e9, PYUSD: 2.5e9, TUSD: 5e8,
  FRAX: 3e8, LUSD: 5e7, USDP: 1e8, GUSD: 8e7, EURC: 2.2e8,
}; // prettier-ignore

const cached = new WeakMap<Market, Coin[]>();

/** Every coin, largest market cap (at its level) first. */
export function coins(market: Market): Coin[] {
  const known = cached.get(market);
  if (known) return known;
  const entities = loadDataset().entities.filter(
    (e) => (e.type === 'crypto' || e.type === 'stablecoin') && e.ids.coingecko && e.ids.symbol,
  );
  const list = entities.map((e, i) => {
    const symbol = e.ids.symbol!.toUpperCase();
    const level = market.spec(`crypto:${symbol}`).level;
    return {
      id: e.ids.coingecko!,
      symbol,
      name: e.name,
      stable: e.type === 'stablecoin',
      supply: own(SUPPLY, symbol) ?? Math.round((1.8e12 * (i + 1) ** -1.9) / level),
      contracts: Object.fromEntries(Object.entries(e.contracts ?? {}).map(([chain, address]) => [chain, address.toLowerCase()])),
    };
  });
  const capOf = (c: Coin) => c.supply * market.spec(`crypto:${c.symbol}`).level;
  const byCap = list.sort((a, b) => capOf(b) - capOf(a));
  cached.set(market, byCap);
  return byCap;
}

export const coinById = (market: Market, id: string): Coin | undefined => coins(market).find((c) => c.id === id);
export const coinBySymbol = (market: Market, symbol: string): Coin | undefined => coins(market).find((c) => c.symbol === symbol);
export const coinByContract = (market: Market, chain: string, address: string): Coin | undefined =>
  coins(market).find((c) => c.contracts[chain] === address.toLowerCase());

/** Binance-style `BTCUSDT` → base and quote. */
export function splitPair(pair: string): { base: string; quote: string } {
  const quote = /(USDT|USDC|FDUSD|TUSD|BTC|ETH|BNB|EUR|USD|TRY|BRL)$/.exec(pair)?.[1] ?? 'USDT';
  return { base: pair.slice(0, -quote.length) || pair, quote };
}
