import type { SourceDescriptor } from './define.js';
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
import cdcFlu from './cdc-flu.js';
import whoOutbreak from './who-outbreak.js';
import secEdgar from './sec-edgar.js';
import legalCourtlistener from './legal-courtlistener.js';
import newsReddit from './news-reddit.js';
import redditTrending from './reddit-trending.js';
import gdeltEvents from './gdelt-events.js';
import acledConflict from './acled-conflict.js';
import tokenRisk from './token-risk.js';
import contractRisk from './contract-risk.js';
import whaleTracker from './whale-tracker.js';
import mevExposure from './mev-exposure.js';
import energyGridEu from './energy-grid-eu.js';
import shippingBdi from './shipping-bdi.js';
import twitchTop from './twitch-top.js';
import steamTop from './steam-top.js';
import newsHnTop from './news-hn-top.js';
import githubTrending from './github-trending.js';
import liquidations from './liquidations.js';
import breach from './breach.js';
import flightsNear from './flights-near.js';
import airQuality from './air-quality.js';
import realEstateRss from './real-estate-rss.js';
import sportsScores from './sports-scores.js';

/** Every data type, explicitly listed: the single source of the catalog, the OpenAPI enum and the docs. */
/**
 * Each descriptor has its own query type, and the runner only hands a descriptor's parsed q back to that same
 * descriptor, so the list is heterogeneous: an existential type, which TypeScript spells `any`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDescriptor = SourceDescriptor<any>;

const DATA_TYPES: AnyDescriptor[] = [
  cryptoPrice,
  weather,
  economicIndicator,
  stockQuote,
  forex,
  cryptoTrending,
  gasPricesEth,
  taIndicators,
  scrape,
  fundingRates,
  orderBook,
  defiYield,
  energyOil,
  commodityMetals,
  agriculturePrices,
  stableDepeg,
  crossDexArb,
  tokenUnlock,
  sentimentTicker,
  cdcFlu,
  whoOutbreak,
  secEdgar,
  legalCourtlistener,
  newsReddit,
  redditTrending,
  gdeltEvents,
  acledConflict,
  tokenRisk,
  contractRisk,
  whaleTracker,
  mevExposure,
  energyGridEu,
  shippingBdi,
  twitchTop,
  steamTop,
  newsHnTop,
  githubTrending,
  liquidations,
  breach,
  flightsNear,
  airQuality,
  realEstateRss,
  sportsScores,
];

export class Registry {
  private readonly byType: Map<string, SourceDescriptor>;

  constructor(descriptors: AnyDescriptor[]) {
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

export const registry = new Registry(DATA_TYPES);
