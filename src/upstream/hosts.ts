/**
 * Every upstream host, declared once. The base URL can be overridden with `UPSTREAM_<NAME>_URL`
 * (tests and the demo point them at the simulator) and a key supplied with `UPSTREAM_<NAME>_KEY`.
 * `key.required` hosts are skipped (reason `upstream_key_missing`) when no key is configured.
 */
export interface KeySpec {
  /** Where the key goes: a query parameter or a header (`Bearer` prefix added for `authorization`). */
  in: 'query' | 'header';
  name: string;
  required: boolean;
}

export interface HostSpec {
  baseUrl: string;
  key?: KeySpec;
  /** `identify` sends SVC_USER_AGENT (hosts that demand contact details); `browser` a browser-like UA. */
  userAgent?: 'identify' | 'browser';
  headers?: Record<string, string>;
  /** Response body cap; larger bodies are refused as `upstream_bad_response`. */
  maxBytes?: number;
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
} as const satisfies Record<string, HostSpec>;

export type HostName = keyof typeof HOSTS;

/** `open-meteo` + `URL` → `UPSTREAM_OPEN_METEO_URL`. */
export const hostEnvName = (name: string, suffix: 'URL' | 'KEY'): string =>
  `UPSTREAM_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${suffix}`;
