import { loadDataset, type Entity } from '../../entities/dataset.js';

/** The entity data file is the one list of asset names and ids; types read it lazily, once. */
let entities: Entity[] | undefined;
const all = (): Entity[] => (entities ??= loadDataset().entities);

/** Crypto assets and stablecoins whose symbol is `symbol` (upper-case). */
export const cryptoBySymbol = (symbol: string): Entity[] =>
  all().filter((e) => (e.type === 'crypto' || e.type === 'stablecoin') && e.ids.symbol?.toUpperCase() === symbol);

/** The Binance USDT pair of a CoinGecko id (`bitcoin` → `BTCUSDT`), when the asset trades there. */
export const binancePairOf = (coingeckoId: string): string | undefined =>
  all().find((e) => e.ids.coingecko === coingeckoId && e.ids.binance)?.ids.binance;
