import { loadDataset, type Entity } from '../../entities/dataset.js';
import { EntityResolver } from '../../entities/resolver.js';

/** The entity data file is the one list of asset names and ids; types read it lazily, once. */
let entities: Entity[] | undefined;
const all = (): Entity[] => (entities ??= loadDataset().entities);
let resolver: EntityResolver | undefined;
const resolverOf = (): EntityResolver => (resolver ??= new EntityResolver(all()));

/** `svc-ent:<class>.<slug>`: an entity id, accepted as q by every type that can use the entity. */
export const ENTITY_ID = /^svc-ent:[a-z]+\.[a-z0-9-]+$/;

export const entityById = (id: string): Entity | undefined => resolverOf().get(id);

/** Crypto assets and stablecoins whose symbol is `symbol` (upper-case). */
export const cryptoBySymbol = (symbol: string): Entity[] =>
  all().filter((e) => (e.type === 'crypto' || e.type === 'stablecoin') && e.ids.symbol?.toUpperCase() === symbol);

/** The Binance USDT pair of a CoinGecko id (`bitcoin` → `BTCUSDT`), when the asset trades there. */
export const binancePairOf = (coingeckoId: string): string | undefined =>
  all().find((e) => e.ids.coingecko === coingeckoId && e.ids.binance)?.ids.binance;

/** The entities that `text` names exactly (an id, symbol, ticker, provider id, name or alias; case-insensitive). */
export const exactEntities = (text: string): Entity[] =>
  resolverOf()
    .resolve(text, 10)
    .matches.filter((m) => m.confidence === 1)
    .map((m) => resolverOf().get(m.id)!);

export interface Suggestion {
  /** The entity as this type's q. */
  q: string;
  entity: string;
  name: string;
}

/** "Did you mean": up to `limit` entities near `text` that the type can use, each written as the type's q. */
export function suggestionsFor(text: string, qOf: (e: Entity) => string | undefined, limit = 3): Suggestion[] {
  const slug = ENTITY_ID.test(text) ? text.slice(text.indexOf('.') + 1) : text;
  return resolverOf()
    .resolve(slug, 25)
    .matches.flatMap((m) => {
      const entity = resolverOf().get(m.id)!;
      const q = qOf(entity);
      return q ? [{ q, entity: entity.id, name: entity.name }] : [];
    })
    .slice(0, limit);
}
