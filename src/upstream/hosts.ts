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
}

/** The base URL of a host whose requests go wherever the caller's URL says (scrape). */
export const DIRECT = 'https://direct.invalid';

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const browserUserAgent = BROWSER_UA;

export const HOSTS = {
  coingecko: { baseUrl: 'https://api.coingecko.com', key: { in: 'header', name: 'x-cg-demo-api-key', required: false } },
  binance: { baseUrl: 'https://data-api.binance.vision' },
  'open-meteo': { baseUrl: 'https://api.open-meteo.com' },
  'met-no': { baseUrl: 'https://api.met.no', userAgent: 'identify' },
  fred: { baseUrl: 'https://api.stlouisfed.org', key: { in: 'query', name: 'api_key', required: true } },
  'fred-graph': { baseUrl: 'https://fred.stlouisfed.org', userAgent: 'browser' },
  yahoo: { baseUrl: 'https://query1.finance.yahoo.com', userAgent: 'browser' },
  frankfurter: { baseUrl: 'https://api.frankfurter.dev' },
  finnhub: { baseUrl: 'https://finnhub.io', key: { in: 'query', name: 'token', required: true } },
  'open-er-api': { baseUrl: 'https://open.er-api.com' },
  geckoterminal: { baseUrl: 'https://api.geckoterminal.com' },
  etherscan: { baseUrl: 'https://api.etherscan.io', key: { in: 'query', name: 'apikey', required: true } },
  'binance-futures': { baseUrl: 'https://fapi.binance.com' },
  bybit: { baseUrl: 'https://api.bybit.com' },
  kraken: { baseUrl: 'https://api.kraken.com' },
  'coinbase-exchange': { baseUrl: 'https://api.exchange.coinbase.com' },
  'eth-rpc': { baseUrl: 'https://ethereum-rpc.publicnode.com' },
  /** scrape fetches arbitrary URLs directly; setting UPSTREAM_WEB_URL (tests, demo) sends them to that server instead. */
  web: { baseUrl: DIRECT },
  youtube: { baseUrl: 'https://www.googleapis.com', key: { in: 'query', name: 'key', required: true } },
  'youtube-feeds': { baseUrl: 'https://www.youtube.com' },
  // /pools returns every tracked pool in one body (10k+ pools, well over the 5 MB default).
  'defillama-yields': { baseUrl: 'https://yields.llama.fi', maxBytes: 48 * 1024 * 1024 },
  'defillama-stablecoins': { baseUrl: 'https://stablecoins.llama.fi' },
  'defillama-datasets': { baseUrl: 'https://defillama-datasets.llama.fi' },
  dexscreener: { baseUrl: 'https://api.dexscreener.com' },
  eia: { baseUrl: 'https://api.eia.gov', key: { in: 'query', name: 'api_key', required: true } },
  lbma: { baseUrl: 'https://prices.lbma.org.uk', userAgent: 'browser' },
  'gold-api': { baseUrl: 'https://api.gold-api.com' },
  'alternative-me': { baseUrl: 'https://api.alternative.me' },
  cryptopanic: { baseUrl: 'https://cryptopanic.com', key: { in: 'query', name: 'auth_token', required: true } },
  'coindesk-rss': { baseUrl: 'https://www.coindesk.com' },
  /** Any OpenAI-compatible chat-completions server: agent-context plans goals no built-in rule matches with it. */
  llm: { baseUrl: 'https://api.openai.com', key: { in: 'header', name: 'authorization', required: true } },
  // Reddit app-only OAuth: UPSTREAM_REDDIT_AUTH_KEY=client_id:client_secret buys a token for oauth.reddit.com.
  'reddit-auth': {
    baseUrl: 'https://www.reddit.com',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    userAgent: 'identify',
  },
  reddit: { baseUrl: 'https://oauth.reddit.com', userAgent: 'identify', tokenFrom: 'reddit-auth' },
  'reddit-rss': { baseUrl: 'https://www.reddit.com', userAgent: 'identify' },
  // ACLED password grant: UPSTREAM_ACLED_KEY=email:password (the first ':' splits them).
  acled: { baseUrl: 'https://acleddata.com', key: { in: 'token', name: 'email:password', required: true }, userAgent: 'identify' },
  gdelt: { baseUrl: 'https://api.gdeltproject.org', userAgent: 'identify' },
  // Delphi Epidata (CDC FluView mirror): anonymous works at 100 requests/hour; a free api_key lifts it.
  'delphi-epidata': { baseUrl: 'https://api.delphi.cmu.edu', key: { in: 'query', name: 'api_key', required: false } },
  who: { baseUrl: 'https://www.who.int' },
  // ReliefWeb API v2 takes no key but refuses calls without a pre-approved appname: UPSTREAM_RELIEFWEB_KEY=<appname>.
  reliefweb: { baseUrl: 'https://api.reliefweb.int', key: { in: 'query', name: 'appname', required: true } },
  // SEC answers 403 to agents without a name and contact address (SVC_USER_AGENT) and allows 10 requests/s.
  'sec-edgar': { baseUrl: 'https://www.sec.gov', userAgent: 'identify' },
  'sec-efts': { baseUrl: 'https://efts.sec.gov', userAgent: 'identify' },
  // `courtlistener-anon` is the same API without a key (anonymous v4 access is being phased out).
  courtlistener: {
    baseUrl: 'https://www.courtlistener.com',
    key: { in: 'header', name: 'authorization', scheme: 'Token', required: true },
  },
  'courtlistener-anon': { baseUrl: 'https://www.courtlistener.com' },
  // Keyless; the optional key is a GoPlus access token (POST /api/v1/token with app_key + app_secret), sent as Bearer.
  gopluslabs: { baseUrl: 'https://api.gopluslabs.io', key: { in: 'header', name: 'authorization', required: false } },
  zeromev: { baseUrl: 'https://data.zeromev.org' },
  // Blockscout explorers (keyless), one host per chain: `blockscout` is Ethereum mainnet.
  blockscout: { baseUrl: 'https://eth.blockscout.com' },
  'blockscout-base': { baseUrl: 'https://base.blockscout.com' },
  'blockscout-optimism': { baseUrl: 'https://optimism.blockscout.com' },
  'blockscout-arbitrum': { baseUrl: 'https://arbitrum.blockscout.com' },
  'blockscout-gnosis': { baseUrl: 'https://gnosis.blockscout.com' },
  'hn-firebase': { baseUrl: 'https://hacker-news.firebaseio.com' },
  'hn-algolia': { baseUrl: 'https://hn.algolia.com' },
  // GitHub refuses requests without a User-Agent; an optional token (sent as Bearer) lifts search from 10 to 30 calls/min.
  github: {
    baseUrl: 'https://api.github.com',
    key: { in: 'header', name: 'authorization', required: false },
    userAgent: 'identify',
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  },
  // HHS OCR breach portal: server-rendered JSF pages, no API and no key.
  'hhs-ocr': { baseUrl: 'https://ocrportal.hhs.gov' },
  okx: { baseUrl: 'https://www.okx.com' },
  // ENTSO-E Transparency Platform: the security token (granted on request by their helpdesk) goes in the query.
  entsoe: { baseUrl: 'https://web-api.tp.entsoe.eu', key: { in: 'query', name: 'securityToken', required: true } },
  'energy-charts': { baseUrl: 'https://api.energy-charts.info' },
  // Unofficial JSON behind seecapitalmarkets.com's index pages (Baltic indices); public scrapers send these XHR
  // headers (terms of use unconfirmed).
  seecapitalmarkets: {
    baseUrl: 'https://seecapitalmarkets.com',
    userAgent: 'browser',
    headers: { 'x-requested-with': 'XMLHttpRequest', referer: 'https://seecapitalmarkets.com/indeksi' },
  },
  // Twitch app access token: UPSTREAM_TWITCH_AUTH_KEY=client_id:client_secret buys it; Helix (`twitch`) also gets
  // the client id as Client-Id.
  'twitch-auth': { baseUrl: 'https://id.twitch.tv', key: { in: 'token', name: 'client_id:client_secret', required: true } },
  twitch: { baseUrl: 'https://api.twitch.tv', tokenFrom: 'twitch-auth' },
  'steam-api': { baseUrl: 'https://api.steampowered.com' },
  'steam-store': { baseUrl: 'https://store.steampowered.com' },
  steamspy: { baseUrl: 'https://steamspy.com' },
  // OpenSky OAuth2 client credentials (required since 18 Mar 2026): UPSTREAM_OPENSKY_AUTH_KEY=client_id:client_secret
  // buys the token for `opensky`.
  'opensky-auth': { baseUrl: 'https://auth.opensky-network.org', key: { in: 'token', name: 'client_id:client_secret', required: true } },
  opensky: { baseUrl: 'https://opensky-network.org', tokenFrom: 'opensky-auth' },
  // Keyless ADS-B aggregators serving the same ADSBExchange-v2 `point` API.
  'adsb-lol': { baseUrl: 'https://api.adsb.lol' },
  'airplanes-live': { baseUrl: 'https://api.airplanes.live' },
  openaq: { baseUrl: 'https://api.openaq.org', key: { in: 'header', name: 'x-api-key', required: true } },
  'open-meteo-air': { baseUrl: 'https://air-quality-api.open-meteo.com' },
  // Redfin's unofficial stingray endpoints answer browsers only (datacenter IPs often get 403).
  redfin: { baseUrl: 'https://www.redfin.com', userAgent: 'browser', headers: { referer: 'https://www.redfin.com/' } },
  espn: { baseUrl: 'https://site.api.espn.com' },
  // TheSportsDB v1 takes its key in the path; the fetcher uses the documented free key (123).
  thesportsdb: { baseUrl: 'https://www.thesportsdb.com' },
} as const satisfies Record<string, HostSpec>;

export type HostName = keyof typeof HOSTS;

/** `open-meteo` + `URL` → `UPSTREAM_OPEN_METEO_URL`. */
export const hostEnvName = (name: string, suffix: 'URL' | 'KEY'): string =>
  `UPSTREAM_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${suffix}`;
