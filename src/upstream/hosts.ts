import * as TERMS from './host-terms.js';

/**
 * Every upstream host, declared once. The base URL can be overridden with `UPSTREAM_<NAME>_URL`
 * (tests and the demo point them at the simulator) and a key supplied with `UPSTREAM_<NAME>_KEY`.
 * `key.required` hosts are skipped (reason `upstream_key_missing`) when no key is configured.
 */
export interface KeySpec {
  /**
   * Where the key goes: a query parameter or a header (`authorization` gets `scheme` in front);
   * `token`: credentials (in the format `name` gives, e.g. `client_id:client_secret`) that the
   * fetcher itself exchanges for a short-lived bearer token (OAuth); the client sends nothing.
   */
  in: 'query' | 'header' | 'token';
  name: string;
  required: boolean;
  /** The authorization scheme for an `authorization` header; default `Bearer`. */
  scheme?: string;
}

export interface HostSpec {
  baseUrl: string;
  key?: KeySpec;
  /** `identify` sends SVC_USER_AGENT (hosts that demand contact details); `browser` a browser-like UA. */
  userAgent?: 'identify' | 'browser';
  headers?: Record<string, string>;
  /** Response body cap; larger bodies are refused as `upstream_bad_response`. */
  maxBytes?: number;
  /** The host whose credentials buy this host's bearer token (an `in: 'token'` host); docs list its key for the types using this one. */
  tokenFrom?: string;
  /** The provider's terms for commercial use, with the page that states them. */
  terms?: { commercial: 'allowed' | 'paid plan' | 'unclear'; url: string; note?: string };
  /** Where an operator gets this host's key. */
  signupUrl?: string;
}

/** The base URL of a host whose requests go wherever the caller's URL says (scrape). */
export const DIRECT = 'https://direct.invalid';

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const browserUserAgent = BROWSER_UA;

export const HOSTS = {
  coingecko: {
    baseUrl: 'https://api.coingecko.com',
    key: { in: 'header', name: 'x-cg-demo-api-key', required: false },
    terms: TERMS.COINGECKO,
    signupUrl: 'https://www.coingecko.com/en/developers/dashboard',
  },
  binance: { baseUrl: 'https://data-api.binance.vision', terms: TERMS.BINANCE },
  'open-meteo': { baseUrl: 'https://api.open-meteo.com', terms: TERMS.OPEN_METEO },
  'met-no': { baseUrl: 'https://api.met.no', userAgent: 'identify', terms: TERMS.MET_NO },
  fred: {
    baseUrl: 'https://api.stlouisfed.org',
    key: { in: 'query', name: 'api_key', required: true },
    terms: TERMS.FRED,
    signupUrl: 'https://fredaccount.stlouisfed.org/apikeys',
  },
  'fred-graph': { baseUrl: 'https://fred.stlouisfed.org', userAgent: 'browser', terms: TERMS.FRED_GRAPH },
  yahoo: { baseUrl: 'https://query1.finance.yahoo.com', userAgent: 'browser', terms: TERMS.YAHOO },
  // Stooq's keyless quote CSV (`/q/l/`); it may answer scripted clients with an HTML challenge (HTTP 200) instead.
  stooq: {
    baseUrl: 'https://stooq.com',
    userAgent: 'browser',
    terms: TERMS.unclear('https://stooq.com/', 'a free quote site with no published API or terms for its CSV'),
  },
  frankfurter: { baseUrl: 'https://api.frankfurter.dev', terms: TERMS.FRANKFURTER },
  finnhub: {
    baseUrl: 'https://finnhub.io',
    key: { in: 'query', name: 'token', required: true },
    terms: TERMS.FINNHUB,
    signupUrl: 'https://finnhub.io/register',
  },
  'open-er-api': { baseUrl: 'https://open.er-api.com', terms: TERMS.OPEN_ER_API },
  geckoterminal: { baseUrl: 'https://api.geckoterminal.com', terms: TERMS.GECKOTERMINAL },
  etherscan: {
    baseUrl: 'https://api.etherscan.io',
    key: { in: 'query', name: 'apikey', required: true },
    terms: TERMS.ETHERSCAN,
    signupUrl: 'https://etherscan.io/apidashboard',
  },
  'binance-futures': { baseUrl: 'https://fapi.binance.com', terms: TERMS.BINANCE_FUTURES },
  bybit: { baseUrl: 'https://api.bybit.com', terms: TERMS.BYBIT },
  kraken: { baseUrl: 'https://api.kraken.com', terms: TERMS.KRAKEN },
  'coinbase-exchange': { baseUrl: 'https://api.exchange.coinbase.com', terms: TERMS.COINBASE_EXCHANGE },
  'eth-rpc': { baseUrl: 'https://ethereum-rpc.publicnode.com', terms: TERMS.ETH_RPC },
  // Sourcify: the open verified-contract repository (APIv2 `/v2/contract/<chainId>/<address>`), keyless.
  sourcify: {
    baseUrl: 'https://sourcify.dev/server',
    terms: TERMS.unclear(
      'https://docs.sourcify.dev/docs/api/',
      'public API without a key; no terms of use or commercial restriction stated',
    ),
  },
  // Hyperliquid's public info API (POST /info): keyless perpetuals market data, funding settled hourly.
  hyperliquid: {
    baseUrl: 'https://api.hyperliquid.xyz',
    terms: TERMS.unclear('https://hyperliquid.xyz/terms', 'US persons are excluded from trading; read-only market data is not addressed'),
  },
  /** scrape fetches arbitrary URLs directly; setting UPSTREAM_WEB_URL (tests, demo) sends them to that server instead. */
  web: { baseUrl: DIRECT, terms: TERMS.WEB },
  youtube: {
    baseUrl: 'https://www.googleapis.com',
    key: { in: 'query', name: 'key', required: true },
    terms: TERMS.YOUTUBE,
    signupUrl: 'https://console.cloud.google.com/apis/library/youtube.googleapis.com',
  },
  'youtube-feeds': { baseUrl: 'https://www.youtube.com', terms: TERMS.YOUTUBE_FEEDS },
  // /pools returns every tracked pool in one body (10k+ pools, well over the 5 MB default).
  'defillama-yields': { baseUrl: 'https://yields.llama.fi', maxBytes: 48 * 1024 * 1024, terms: TERMS.DEFILLAMA },
  'defillama-stablecoins': { baseUrl: 'https://stablecoins.llama.fi', terms: TERMS.DEFILLAMA },
  'defillama-datasets': { baseUrl: 'https://defillama-datasets.llama.fi', terms: TERMS.DEFILLAMA },
  dexscreener: { baseUrl: 'https://api.dexscreener.com', terms: TERMS.DEXSCREENER },
  eia: {
    baseUrl: 'https://api.eia.gov',
    key: { in: 'query', name: 'api_key', required: true },
    terms: TERMS.EIA,
    signupUrl: 'https://www.eia.gov/opendata/register.php',
  },
  lbma: { baseUrl: 'https://prices.lbma.org.uk', userAgent: 'browser', terms: TERMS.LBMA },
  'gold-api': { baseUrl: 'https://api.gold-api.com', terms: TERMS.GOLD_API },
  'alternative-me': { baseUrl: 'https://api.alternative.me', terms: TERMS.ALTERNATIVE_ME },
  cryptopanic: {
    baseUrl: 'https://cryptopanic.com',
    key: { in: 'query', name: 'auth_token', required: true },
    terms: TERMS.CRYPTOPANIC,
    signupUrl: 'https://cryptopanic.com/developers/api/',
  },
  'coindesk-rss': { baseUrl: 'https://www.coindesk.com', terms: TERMS.COINDESK_RSS },
  /** Any OpenAI-compatible chat-completions server: agent-context plans goals no built-in rule matches with it. */
  llm: {
    baseUrl: 'https://api.openai.com',
    key: { in: 'header', name: 'authorization', required: true },
    terms: TERMS.LLM,
    signupUrl: 'https://platform.openai.com/api-keys',
  },
  // Reddit app-only OAuth: UPSTREAM_REDDIT_AUTH_KEY=client_id:client_secret buys a token for oauth.reddit.com.
  'reddit-auth': {
    baseUrl: 'https://www.reddit.com',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    userAgent: 'identify',
    terms: TERMS.REDDIT,
    signupUrl: 'https://www.reddit.com/prefs/apps',
  },
  reddit: { baseUrl: 'https://oauth.reddit.com', userAgent: 'identify', tokenFrom: 'reddit-auth', terms: TERMS.REDDIT },
  'reddit-rss': { baseUrl: 'https://www.reddit.com', userAgent: 'identify', terms: TERMS.REDDIT_RSS },
  // ACLED password grant: UPSTREAM_ACLED_KEY=email:password (the first ':' splits them).
  acled: {
    baseUrl: 'https://acleddata.com',
    key: { in: 'token', name: 'email:password', required: true },
    userAgent: 'identify',
    terms: TERMS.ACLED,
    signupUrl: 'https://acleddata.com/api-documentation/getting-started',
  },
  gdelt: { baseUrl: 'https://api.gdeltproject.org', userAgent: 'identify', terms: TERMS.GDELT },
  // Delphi Epidata (CDC FluView mirror): anonymous works at 100 requests/hour; a free api_key lifts it.
  'delphi-epidata': {
    baseUrl: 'https://api.delphi.cmu.edu',
    key: { in: 'query', name: 'api_key', required: false },
    terms: TERMS.DELPHI_EPIDATA,
    signupUrl: 'https://api.delphi.cmu.edu/epidata/admin/registration_form',
  },
  who: { baseUrl: 'https://www.who.int', terms: TERMS.WHO },
  // ReliefWeb API v2 takes no key but refuses calls without a pre-approved appname: UPSTREAM_RELIEFWEB_KEY=<appname>.
  reliefweb: {
    baseUrl: 'https://api.reliefweb.int',
    key: { in: 'query', name: 'appname', required: true },
    terms: TERMS.RELIEFWEB,
    signupUrl: 'https://apidoc.reliefweb.int/parameters#appname',
  },
  // SEC answers 403 to agents without a name and contact address (SVC_USER_AGENT) and allows 10 requests/s.
  'sec-edgar': { baseUrl: 'https://www.sec.gov', userAgent: 'identify', terms: TERMS.SEC },
  'sec-efts': { baseUrl: 'https://efts.sec.gov', userAgent: 'identify', terms: TERMS.SEC },
  // `courtlistener-anon` is the same API without a key (anonymous v4 access is being phased out).
  courtlistener: {
    baseUrl: 'https://www.courtlistener.com',
    key: { in: 'header', name: 'authorization', scheme: 'Token', required: true },
    terms: TERMS.COURTLISTENER,
    signupUrl: 'https://www.courtlistener.com/help/api/rest/',
  },
  'courtlistener-anon': { baseUrl: 'https://www.courtlistener.com', terms: TERMS.COURTLISTENER_ANON },
  // Keyless; the optional key is a GoPlus access token (POST /api/v1/token with app_key + app_secret), sent as Bearer.
  gopluslabs: {
    baseUrl: 'https://api.gopluslabs.io',
    key: { in: 'header', name: 'authorization', required: false },
    terms: TERMS.GOPLUSLABS,
    signupUrl: 'https://docs.gopluslabs.io/reference/api-overview',
  },
  zeromev: { baseUrl: 'https://data.zeromev.org', terms: TERMS.ZEROMEV },
  // Blockscout explorers (keyless), one host per chain: `blockscout` is Ethereum mainnet.
  blockscout: { baseUrl: 'https://eth.blockscout.com', terms: TERMS.BLOCKSCOUT },
  'blockscout-base': { baseUrl: 'https://base.blockscout.com', terms: TERMS.BLOCKSCOUT },
  'blockscout-optimism': { baseUrl: 'https://optimism.blockscout.com', terms: TERMS.BLOCKSCOUT },
  'blockscout-arbitrum': { baseUrl: 'https://arbitrum.blockscout.com', terms: TERMS.BLOCKSCOUT },
  'blockscout-gnosis': { baseUrl: 'https://gnosis.blockscout.com', terms: TERMS.BLOCKSCOUT },
  'hn-firebase': { baseUrl: 'https://hacker-news.firebaseio.com', terms: TERMS.HN_FIREBASE },
  'hn-algolia': { baseUrl: 'https://hn.algolia.com', terms: TERMS.HN_ALGOLIA },
  // GitHub refuses requests without a User-Agent; an optional token (sent as Bearer) lifts search from 10 to 30 calls/min.
  github: {
    baseUrl: 'https://api.github.com',
    key: { in: 'header', name: 'authorization', required: false },
    userAgent: 'identify',
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    terms: TERMS.GITHUB,
    signupUrl: 'https://github.com/settings/tokens',
  },
  // HHS OCR breach portal: server-rendered JSF pages, no API and no key.
  'hhs-ocr': { baseUrl: 'https://ocrportal.hhs.gov', terms: TERMS.HHS_OCR },
  okx: { baseUrl: 'https://www.okx.com', terms: TERMS.OKX },
  // ENTSO-E Transparency Platform: the security token (granted on request by their helpdesk) goes in the query.
  entsoe: {
    baseUrl: 'https://web-api.tp.entsoe.eu',
    key: { in: 'query', name: 'securityToken', required: true },
    terms: TERMS.ENTSOE,
    signupUrl: 'https://transparency.entsoe.eu/content/static_content/Static%20content/web%20api/Guide.html',
  },
  'energy-charts': { baseUrl: 'https://api.energy-charts.info', terms: TERMS.ENERGY_CHARTS },
  // Unofficial JSON behind seecapitalmarkets.com's index pages (Baltic indices); public scrapers send these XHR
  // headers (terms of use unconfirmed).
  seecapitalmarkets: {
    baseUrl: 'https://seecapitalmarkets.com',
    userAgent: 'browser',
    headers: { 'x-requested-with': 'XMLHttpRequest', referer: 'https://seecapitalmarkets.com/indeksi' },
    terms: TERMS.SEECAPITALMARKETS,
  },
  // Twitch app access token: UPSTREAM_TWITCH_AUTH_KEY=client_id:client_secret buys it; Helix (`twitch`) also gets
  // the client id as Client-Id.
  'twitch-auth': {
    baseUrl: 'https://id.twitch.tv',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    terms: TERMS.TWITCH,
    signupUrl: 'https://dev.twitch.tv/console/apps',
  },
  twitch: { baseUrl: 'https://api.twitch.tv', tokenFrom: 'twitch-auth', terms: TERMS.TWITCH },
  'steam-api': { baseUrl: 'https://api.steampowered.com', terms: TERMS.STEAM_API },
  'steam-store': { baseUrl: 'https://store.steampowered.com', terms: TERMS.STEAM_STORE },
  steamspy: { baseUrl: 'https://steamspy.com', terms: TERMS.STEAMSPY },
  // OpenSky OAuth2 client credentials (required since 18 Mar 2026): UPSTREAM_OPENSKY_AUTH_KEY=client_id:client_secret
  // buys the token for `opensky`.
  'opensky-auth': {
    baseUrl: 'https://auth.opensky-network.org',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    terms: TERMS.OPENSKY,
    signupUrl: 'https://opensky-network.org/my-opensky/account',
  },
  opensky: { baseUrl: 'https://opensky-network.org', tokenFrom: 'opensky-auth', terms: TERMS.OPENSKY },
  // Keyless ADS-B aggregators serving the same ADSBExchange-v2 `point` API.
  'adsb-lol': { baseUrl: 'https://api.adsb.lol', terms: TERMS.ADSB_LOL },
  'airplanes-live': { baseUrl: 'https://api.airplanes.live', terms: TERMS.AIRPLANES_LIVE },
  openaq: {
    baseUrl: 'https://api.openaq.org',
    key: { in: 'header', name: 'x-api-key', required: true },
    terms: TERMS.OPENAQ,
    signupUrl: 'https://explore.openaq.org/register',
  },
  'open-meteo-air': { baseUrl: 'https://air-quality-api.open-meteo.com', terms: TERMS.OPEN_METEO },
  // Redfin's unofficial stingray endpoints answer browsers only (datacenter IPs often get 403).
  redfin: { baseUrl: 'https://www.redfin.com', userAgent: 'browser', headers: { referer: 'https://www.redfin.com/' }, terms: TERMS.REDFIN },
  espn: { baseUrl: 'https://site.api.espn.com', terms: TERMS.ESPN },
  // TheSportsDB v1 takes its key in the path; the fetcher uses the documented free key (123).
  thesportsdb: { baseUrl: 'https://www.thesportsdb.com', terms: TERMS.THESPORTSDB },
} as const satisfies Record<string, HostSpec>;

export type HostName = keyof typeof HOSTS;

/** `open-meteo` + `URL` → `UPSTREAM_OPEN_METEO_URL`. */
export const hostEnvName = (name: string, suffix: 'URL' | 'KEY'): string =>
  `UPSTREAM_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${suffix}`;

/** The spec of a host by name (names from descriptors and config are plain strings). */
export const hostSpec = (name: string): HostSpec | undefined => (HOSTS as Record<string, HostSpec>)[name];

/** The host whose key a host uses: itself, or the host whose credentials buy its token (`tokenFrom`). */
export const keyHostOf = (name: string): string => hostSpec(name)?.tokenFrom ?? name;
