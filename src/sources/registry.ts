import type { SourceDescriptor } from './define.js';
import { pendingSources } from './pending.js';
import cryptoPrice from './crypto-price.js';
import economicIndicator from './economic-indicator.js';
import weather from './weather.js';
import stockQuote from './stock-quote.js';
import forex from './forex.js';
import cryptoTrending from './crypto-trending.js';
import gasPricesEth from './gas-prices-eth.js';
import taIndicators from './ta-indicators.js';
import scrape from './scrape.js';
import fundingRates from './funding-rates.js';
import orderBook from './order-book.js';
import defiYield from './defi-yield.js';
import energyOil from './energy-oil.js';
import commodityMetals from './commodity-metals.js';
import agriculturePrices from './agriculture-prices.js';
import stableDepeg from './stable-depeg.js';
import crossDexArb from './cross-dex-arb.js';
import tokenUnlock from './token-unlock.js';
import sentimentTicker from './sentiment-ticker.js';

/** Every data type, explicitly listed: the single source of the catalog, the OpenAPI enum and the docs. */
const IMPLEMENTED: SourceDescriptor<any>[] = [cryptoPrice, weather, economicIndicator, stockQuote, forex, cryptoTrending, gasPricesEth, taIndicators, scrape, fundingRates, orderBook, defiYield, energyOil, commodityMetals, agriculturePrices, stableDepeg, crossDexArb, tokenUnlock, sentimentTicker];

export class Registry {
  private readonly byType: Map<string, SourceDescriptor>;

  constructor(descriptors: SourceDescriptor<any>[]) {
    this.byType = new Map(descriptors.map((d) => [d.type, d]));
    if (this.byType.size !== descriptors.length) throw new Error('two descriptors share a type');
  }

  get(type: string): SourceDescriptor | undefined {
    return this.byType.get(type);
  }

  all(): SourceDescriptor[] {
    return [...this.byType.values()];
  }

  types(): string[] {
    return [...this.byType.keys()];
  }
}


export const registry = new Registry([...IMPLEMENTED, ...pendingSources]);
