import type { SourceDescriptor } from './define.js';

/**
 * Catalog entries of the types whose connector is not written yet. They are listed in the catalog
 * (the spec's table is the contract) and answer `ok:false, error:'not_implemented'`. Writing a
 * connector moves its entry out of here into `<type>.ts`.
 */
type Entry = Pick<SourceDescriptor, 'type' | 'categories' | 'example' | 'desc' | 'qShape' | 'entityQ'>;

const PENDING: Entry[] = [
  { type: 'token-risk', categories: ['security', 'crypto'], qShape: '<chain>:<contract_address>', example: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7', desc: '`<chain>:<contract_address>`; token security scan', entityQ: (e) => (e.contracts?.ethereum ? `ethereum:${e.contracts.ethereum}` : undefined) },
  { type: 'breach', categories: ['security', 'health'], qShape: '<us_state_name>', example: 'California', desc: '`<us_state_name>`; healthcare breach reports' },
  { type: 'contract-risk', categories: ['security', 'crypto'], qShape: '<chain>:<contract_address>', example: 'ethereum:0x7a250d5630b4cf539739df2c5dacb4c659f2488d', desc: '`<chain>:<contract_address>`; contract risk score', entityQ: (e) => (e.contracts?.ethereum ? `ethereum:${e.contracts.ethereum}` : undefined) },
  { type: 'news-hn-top', categories: ['news', 'tech'], qShape: '', example: '', desc: 'empty; front page of a tech news aggregator' },
  { type: 'news-reddit', categories: ['news', 'social'], qShape: '<subreddit_name>', example: 'technology', desc: '`<subreddit_name>`; top 10 hot posts' },
  { type: 'flights-near', categories: ['aviation', 'geo'], qShape: '<lamin>,<lomin>,<lamax>,<lomax>', example: '45.8,5.9,47.8,10.5', desc: '`<lamin>,<lomin>,<lamax>,<lomax>`; flights in a bounding box' },
  { type: 'real-estate-rss', categories: ['real-estate'], qShape: '<zip_code>', example: '94110', desc: '`<zip_code>`; recently sold homes' },
  { type: 'sports-scores', categories: ['sports'], qShape: '<sport>/<league>', example: 'basketball/nba', desc: '`<sport>/<league>`; scoreboard' },
  { type: 'github-trending', categories: ['dev', 'tech'], qShape: '<language>', example: 'typescript', desc: '`<language>`; repositories created in the last 48 hours, sorted by stars' },
  { type: 'whale-tracker', categories: ['crypto', 'trader'], qShape: '<chain>:<address>', example: 'ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7', desc: '`<chain>:<address>`; top 5 recent large transfers' },
  { type: 'liquidations', categories: ['crypto', 'trader', 'defi'], qShape: '<protocol_name>', example: 'aave', desc: '`<protocol_name>`; recent liquidation events' },
  { type: 'mev-exposure', categories: ['crypto', 'trader', 'defi', 'security'], qShape: '<chain>:<contract_address>', example: 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', desc: '`<chain>:<contract_address>`; sandwich-risk score 0-100' },
  { type: 'energy-grid-eu', categories: ['energy', 'power', 'europe'], qShape: '<country_code>', example: 'DE', desc: '`<country_code>`; grid load (curated data, with an optional keyed path)' },
  { type: 'shipping-bdi', categories: ['shipping', 'logistics', 'commodities'], qShape: '<period_label>', example: 'latest', desc: '`<period_label>`; dry bulk shipping index' },
  { type: 'air-quality', categories: ['health', 'environment', 'weather'], qShape: '<lat>,<lon>', example: '48.8566,2.3522', desc: '`<lat>,<lon>`; PM2.5, NO2, O3 measurements within a 10 km radius' },
  { type: 'cdc-flu', categories: ['health', 'public-health'], qShape: '<region_label>', example: 'nat', desc: '`<region_label>`; weekly influenza-like-illness activity snapshot' },
  { type: 'who-outbreak', categories: ['health', 'public-health', 'global'], qShape: '<label>', example: 'latest', desc: '`<label>`; latest disease outbreak news entries' },
  { type: 'sec-edgar', categories: ['finance', 'regulatory', 'filings'], qShape: '<form_type>', example: '8-K', desc: '`<form_type>` such as 8-K, 10-K, 13F; latest filings of that form' },
  { type: 'acled-conflict', categories: ['geopolitics', 'conflict', 'global'], qShape: '<topic_keyword>', example: 'sudan', desc: '`<topic_keyword>`; conflict event articles' },
  { type: 'gdelt-events', categories: ['news', 'geopolitics', 'global'], qShape: '<topic>', example: 'climate', desc: '`<topic>`; global news article search' },
  { type: 'twitch-top', categories: ['gaming', 'streaming', 'social'], qShape: '<list_label>', example: 'top', desc: '`<list_label>`; top-watched streaming channels' },
  { type: 'steam-top', categories: ['gaming', 'retail'], qShape: '<list_label>', example: 'top', desc: '`<list_label>`; most-played games' },
  { type: 'reddit-trending', categories: ['news', 'social'], qShape: '<list_label>', example: 'top', desc: '`<list_label>`; hottest threads across the site front page' },
  { type: 'legal-courtlistener', categories: ['legal', 'filings'], qShape: '<label>', example: 'latest', desc: '`<label>`; latest US court opinions feed' },
];

/** Placeholder descriptors: they parse any q and never fetch. */
export const pendingSources: SourceDescriptor<string>[] = PENDING.map((entry) => ({
  ...entry,
  parseQ: (q: string) => q,
  upstreams: {},
  ttlSeconds: 0,
  deadlineMs: 0,
  implemented: false,
}));
