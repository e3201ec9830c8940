import { ApiError } from '../core/errors.js';
import cryptoPrice from '../sources/crypto-price.js';
import { resolveQ } from '../sources/vocabulary.js';
import { ASSETS, type Asset } from './strategies.js';

/** The one coin id a q names in crypto-price's vocabulary (a symbol, CoinGecko id or entity id), if it names one. */
function coinOf(q: string): string | undefined {
  try {
    const ids = resolveQ(cryptoPrice, q).parsed;
    return ids.length === 1 ? ids[0] : undefined;
  } catch {
    return undefined; // Not a coin at all: answered like a coin the arena does not trade.
  }
}

let assetByCoin: Map<string, Asset> | undefined;

/**
 * The arena asset a q names, in crypto-price's vocabulary (`BTC`, `bitcoin`, `svc-ent:cr.bitcoin` are one asset).
 * The arena trades only the assets it prices (hourly candles of BTC, ETH and SOL): any other is a 400 that says which.
 */
export function arenaAsset(q: string, field = 'asset'): Asset {
  assetByCoin ??= new Map(ASSETS.map((asset) => [coinOf(asset)!, asset]));
  const coin = coinOf(q);
  const asset = coin === undefined ? undefined : assetByCoin.get(coin);
  if (asset) return asset;
  throw new ApiError('validation_failed', `the arena trades ${ASSETS.join(', ')} only (hourly candles it can price), not "${q}"`, {
    field,
    rule: 'arena_asset',
    allowed: [...ASSETS],
  });
}
