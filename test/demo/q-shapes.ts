/**
 * Concrete queries for every q shape in the spec's table of data types ("The 42 data types"): the values the table names
 * (gold, silver, platinum; WTI and Brent; 8-K, 10-K, 13F; the 26 economic-indicator codes), every value of the closed lists
 * the sources accept, and a few of each open shape. The catalog examples are asked separately.
 */
import { SERIES_CODES } from '../../src/sources/economic-indicator.js';
import { METALS } from '../../src/sources/commodity-metals.js';
import { BENCHMARKS } from '../../src/sources/energy-oil.js';
import { GRAINS } from '../../src/sources/agriculture-prices.js';
import { FORMS } from '../../src/sources/sec-edgar.js';
import { PERIODS } from '../../src/sources/shipping-bdi.js';
import { LISTS as STEAM_LISTS } from '../../src/sources/steam-top.js';
import { COUNTRIES } from '../../src/sources/energy-grid-eu.js';

const each = (type: string, qs: readonly string[]) => qs.map((q) => [type, q] as const);

export const SPEC_QUERIES: (readonly [type: string, q: string])[] = [
  ...each('token-risk', ['ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7', 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48']),
  ...each('breach', ['California', 'Texas']),
  ...each('contract-risk', ['ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7']),
  ...each('defi-yield', ['USDC', 'WETH', 'USDT', 'DAI']),
  ...each('scrape', ['https://example.com/']),
  ...each('crypto-price', ['bitcoin', 'ethereum', 'bitcoin,ethereum,solana', 'dogecoin']),
  ...each('crypto-trending', ['']),
  ...each('stock-quote', ['AAPL', 'MSFT', 'NVDA', 'SPY']),
  ...each('weather', ['40.71,-74.01', '51.51,-0.13', '-33.87,151.21', '64.15,-21.94']),
  ...each('news-hn-top', ['']),
  ...each('news-reddit', ['technology', 'worldnews', 'bitcoin']),
  ...each('flights-near', ['45.8,5.9,47.8,10.5', '51.3,-0.6,51.7,0.3']),
  ...each('real-estate-rss', ['94110']),
  ...each('sports-scores', ['basketball/nba', 'football/nfl', 'soccer/eng.1', 'hockey/nhl']),
  ...each('gas-prices-eth', ['']),
  ...each('forex', ['EUR:USD', 'USD:JPY', 'GBP:CHF']),
  ...each('github-trending', ['typescript', 'python', 'rust']),
  ...each('whale-tracker', ['ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7', 'ethereum:0x28c6c06298d514db089934071355e5743bf21d60']),
  ...each('liquidations', ['aave', 'aave-v3', 'okx']),
  ...each('funding-rates', ['BTC', 'ETH', 'SOL']),
  ...each('order-book', ['binance:BTCUSDT', 'binance:ETHUSDT', 'kraken:BTCUSD', 'coinbase:ETH-USD']),
  ...each('ta-indicators', ['BTC:1h', 'ETH:4h', 'SOL:1d', 'BTC:15m']),
  ...each('sentiment-ticker', ['BTC', 'ETH']),
  ...each('token-unlock', ['ARB']),
  ...each('mev-exposure', ['ethereum:0x66a9893cc07d91d95644aedd05d03f95e1dba8af']),
  ...each('stable-depeg', ['USDT', 'USDC', 'DAI']),
  ...each('cross-dex-arb', ['ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2']),
  ...each('energy-oil', BENCHMARKS),
  ...each('energy-grid-eu', COUNTRIES),
  ...each('shipping-bdi', PERIODS),
  ...each('air-quality', ['48.8566,2.3522', '40.71,-74.01', '28.61,77.21']),
  ...each('cdc-flu', ['nat', 'hhs1']),
  ...each('who-outbreak', ['latest']),
  ...each('sec-edgar', FORMS),
  ...each('acled-conflict', ['sudan', 'ukraine']),
  ...each('gdelt-events', ['climate', 'elections']),
  ...each('twitch-top', ['top']),
  ...each('steam-top', STEAM_LISTS),
  ...each('reddit-trending', ['top', 'popular', 'all']),
  ...each('commodity-metals', METALS),
  ...each('agriculture-prices', GRAINS),
  ...each('legal-courtlistener', ['latest']),
  ...each('economic-indicator', SERIES_CODES),
];
