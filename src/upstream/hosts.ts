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

type Terms = NonNullable<HostSpec['terms']>;
const terms =
  (commercial: Terms['commercial']) =>
  (url: string, note?: string): Terms => ({ commercial, url, ...(note ? { note } : {}) });
/** Commercial use allowed (attribution and fair-use rules may apply: see the note). */
const allowed = terms('allowed');
/** Commercial use needs a paid plan or a licence. */
const paidPlan = terms('paid plan');
/** Not confirmed by the provider's own terms, or they forbid what svc does: the URL is the page checked. */
const unclear = terms('unclear');

// Each provider's terms as its pages state them (checked 2026-11); `unclear` where they could not be confirmed.
const COINGECKO = unclear('https://www.coingecko.com/en/api_terms', 'keyless and Demo use ask for attribution; paid plans exist');
const BINANCE = unclear('https://www.binance.com/en/terms', "market data under Binance's general terms; answers 451 in restricted regions");
const OPEN_METEO = paidPlan('https://open-meteo.com/en/terms', 'free API for non-commercial use only; commercial use needs an API plan');
const MET_NO = allowed('https://api.met.no/doc/TermsOfService', 'CC BY 4.0, credit MET Norway; identify yourself in the User-Agent');
const FRED = unclear('https://fred.stlouisfed.org/docs/api/terms_of_use.html', "some series need their owner's permission");
const FRED_GRAPH = unclear('https://fred.stlouisfed.org/legal/', 'website download; the same series copyrights as the API');
const YAHOO = unclear('https://legal.yahoo.com/us/en/yahoo/terms/otos/index.html', 'unofficial; no automated or commercial use');
const FRANKFURTER = allowed('https://frankfurter.dev/', 'open source, keyless; ECB reference rates, reusable with the source named');
const FINNHUB = paidPlan('https://finnhub.io/terms-of-service', 'free keys: personal, non-professional use only');
const OPEN_ER_API = unclear('https://www.exchangerate-api.com/terms', 'attribution required; re-distributing the rates is not allowed');
const GECKOTERMINAL = unclear('https://www.coingecko.com/en/api_terms', 'keyless; CoinGecko terms, attribution requested');
const ETHERSCAN = unclear('https://etherscan.io/terms', 'free keys with a call quota; attribution "Powered by Etherscan" requested');
const BINANCE_FUTURES = unclear('https://www.binance.com/en/terms', 'answers 451 to US and other restricted regions');
const BYBIT = unclear('https://www.bybit.com/en/help-center/article/Terms-of-Service', 'answers 403 to US and other restricted regions');
const KRAKEN = unclear('https://www.kraken.com/legal');
const COINBASE_EXCHANGE = unclear('https://www.coinbase.com/legal/user_agreement');
const ETH_RPC = unclear('https://www.publicnode.com/', 'free public RPC without stated usage terms');
const WEB = unclear('https://www.rfc-editor.org/rfc/rfc9309', 'whatever the scraped site allows: check its terms and robots.txt');
const YOUTUBE = allowed('https://developers.google.com/youtube/terms/api-services-terms-of-service', 'quota and display rules apply');
const YOUTUBE_FEEDS = unclear('https://www.youtube.com/t/terms', 'public RSS feeds under the YouTube terms');
const DEFILLAMA = unclear('https://defillama.com/docs/api', 'free, keyless open API without stated commercial terms');
const DEXSCREENER = unclear('https://docs.dexscreener.com/api/api-terms-and-conditions');
const EIA = allowed('https://www.eia.gov/about/copyrights_reuse.php', 'US government data, public domain; the free key only meters use');
const LBMA = paidPlan('https://www.lbma.org.uk/prices-and-data/precious-metal-prices', 'licensed by ICE Benchmark Administration');
const GOLD_API = unclear('https://gold-api.com/');
const ALTERNATIVE_ME = unclear('https://alternative.me/crypto/fear-and-greed-index/', 'free; attribution asked; commercial use not stated');
const CRYPTOPANIC = unclear('https://cryptopanic.com/developers/api/', 'free keys with a quota; commercial terms not stated');
const COINDESK_RSS = unclear('https://www.coindesk.com/terms', 'headlines from the public RSS feed');
const LLM = paidPlan('https://openai.com/policies/services-agreement/', 'a paid API: use is billed per token');
const REDDIT = paidPlan('https://redditinc.com/policies/data-api-terms', 'commercial use needs an agreement with Reddit');
const REDDIT_RSS = paidPlan('https://redditinc.com/policies/data-api-terms', 'the public feeds fall under the Data API terms too');
const ACLED = unclear('https://acleddata.com/terms-of-use/', 'registered access; commercial use is licensed separately');
const GDELT = allowed('https://www.gdeltproject.org/about.html#termsofuse', 'free for any use, commercial included, with a citation');
const DELPHI_EPIDATA = unclear('https://cmu-delphi.github.io/delphi-epidata/', 'follows each source (FluView: CDC, public domain)');
const WHO = unclear('https://www.who.int/about/policies/publishing/copyright', 'CC BY-NC-SA 3.0 IGO: non-commercial');
const RELIEFWEB = unclear('https://reliefweb.int/terms-conditions', 'content belongs to its sources; the API needs a pre-approved appname');
const SEC = allowed('https://www.sec.gov/os/accessing-edgar-data', 'public domain; 10 requests/s, identifying User-Agent');
const COURTLISTENER = unclear('https://www.courtlistener.com/terms/', 'court records are public; API access is free with a token');
const COURTLISTENER_ANON = unclear('https://www.courtlistener.com/terms/', 'anonymous API access is being phased out');
const GOPLUSLABS = unclear('https://gopluslabs.io/terms-of-service', 'keyless with a quota; commercial terms not stated');
const ZEROMEV = unclear('https://info.zeromev.org/api.html');
const BLOCKSCOUT = unclear('https://docs.blockscout.com/devs/apis', 'keyless public explorer API; terms not stated');
const HN_FIREBASE = unclear('https://github.com/HackerNews/API', 'the official API states no terms of use');
const HN_ALGOLIA = unclear('https://hn.algolia.com/api', 'search API run by Algolia; terms not stated');
const GITHUB = allowed('https://docs.github.com/en/site-policy/github-terms/github-terms-of-service');
const HHS_OCR = allowed('https://www.usa.gov/government-copyright', 'US government records, public domain');
const OKX = unclear('https://www.okx.com/help/terms-of-service');
const ENTSOE = unclear('https://transparency.entsoe.eu/', 'reuse with attribution; commercial terms not confirmed');
const ENERGY_CHARTS = allowed('https://api.energy-charts.info/', 'Fraunhofer ISE data under CC BY 4.0');
const SEECAPITALMARKETS = unclear('https://seecapitalmarkets.com/indeksi', 'unofficial JSON; indices licensed by the Baltic Exchange');
const TWITCH = allowed('https://www.twitch.tv/p/en/legal/developer-agreement/', 'allowed under the Twitch Developer Services Agreement');
const STEAM_API = unclear('https://steamcommunity.com/dev/apiterms');
const STEAM_STORE = unclear('https://store.steampowered.com/subscriber_agreement/', 'unofficial store endpoints');
const STEAMSPY = unclear('https://steamspy.com/about', 'estimates from a third party; terms not stated');
const OPENSKY = paidPlan('https://opensky-network.org/about/terms-of-use', 'non-commercial use; commercial use needs a licence');
const ADSB_LOL = allowed('https://api.adsb.lol/docs', 'open data under ODbL 1.0 (attribution, share-alike)');
const AIRPLANES_LIVE = unclear('https://airplanes.live/api-guide/', 'free API for non-commercial use; commercial use by arrangement');
const OPENAQ = allowed('https://docs.openaq.org/about/terms', 'free keys; most data CC BY 4.0 (terms follow each source)');
const REDFIN = unclear('https://www.redfin.com/about/terms-of-use', 'unofficial; automated and commercial use restricted');
const ESPN = unclear('https://disneytermsofuse.com/english/', 'unofficial endpoints without published terms');
const THESPORTSDB = unclear('https://www.thesportsdb.com/documentation', 'the free key 123 is limited; premium keys are sold');

export const HOSTS = {
  coingecko: {
    baseUrl: 'https://api.coingecko.com',
    key: { in: 'header', name: 'x-cg-demo-api-key', required: false },
    terms: COINGECKO,
    signupUrl: 'https://www.coingecko.com/en/developers/dashboard',
  },
  binance: { baseUrl: 'https://data-api.binance.vision', terms: BINANCE },
  'open-meteo': { baseUrl: 'https://api.open-meteo.com', terms: OPEN_METEO },
  'met-no': { baseUrl: 'https://api.met.no', userAgent: 'identify', terms: MET_NO },
  fred: {
    baseUrl: 'https://api.stlouisfed.org',
    key: { in: 'query', name: 'api_key', required: true },
    terms: FRED,
    signupUrl: 'https://fredaccount.stlouisfed.org/apikeys',
  },
  'fred-graph': { baseUrl: 'https://fred.stlouisfed.org', userAgent: 'browser', terms: FRED_GRAPH },
  yahoo: { baseUrl: 'https://query1.finance.yahoo.com', userAgent: 'browser', terms: YAHOO },
  // Stooq's keyless quote CSV (`/q/l/`); it may answer scripted clients with an HTML challenge (HTTP 200) instead.
  stooq: {
    baseUrl: 'https://stooq.com',
    userAgent: 'browser',
    terms: unclear('https://stooq.com/', 'a free quote site with no published API or terms for its CSV'),
  },
  frankfurter: { baseUrl: 'https://api.frankfurter.dev', terms: FRANKFURTER },
  finnhub: {
    baseUrl: 'https://finnhub.io',
    key: { in: 'query', name: 'token', required: true },
    terms: FINNHUB,
    signupUrl: 'https://finnhub.io/register',
  },
  'open-er-api': { baseUrl: 'https://open.er-api.com', terms: OPEN_ER_API },
  geckoterminal: { baseUrl: 'https://api.geckoterminal.com', terms: GECKOTERMINAL },
  etherscan: {
    baseUrl: 'https://api.etherscan.io',
    key: { in: 'query', name: 'apikey', required: true },
    terms: ETHERSCAN,
    signupUrl: 'https://etherscan.io/apidashboard',
  },
  'binance-futures': { baseUrl: 'https://fapi.binance.com', terms: BINANCE_FUTURES },
  bybit: { baseUrl: 'https://api.bybit.com', terms: BYBIT },
  kraken: { baseUrl: 'https://api.kraken.com', terms: KRAKEN },
  'coinbase-exchange': { baseUrl: 'https://api.exchange.coinbase.com', terms: COINBASE_EXCHANGE },
  'eth-rpc': { baseUrl: 'https://ethereum-rpc.publicnode.com', terms: ETH_RPC },
  // Sourcify: the open verified-contract repository (APIv2 `/v2/contract/<chainId>/<address>`), keyless.
  sourcify: {
    baseUrl: 'https://sourcify.dev/server',
    terms: unclear('https://docs.sourcify.dev/docs/api/', 'public API without a key; no terms of use or commercial restriction stated'),
  },
  // Hyperliquid's public info API (POST /info): keyless perpetuals market data, funding settled hourly.
  hyperliquid: {
    baseUrl: 'https://api.hyperliquid.xyz',
    terms: unclear('https://hyperliquid.xyz/terms', 'US persons are excluded from trading; read-only market data is not addressed'),
  },
  /** scrape fetches arbitrary URLs directly; setting UPSTREAM_WEB_URL (tests, demo) sends them to that server instead. */
  web: { baseUrl: DIRECT, terms: WEB },
  youtube: {
    baseUrl: 'https://www.googleapis.com',
    key: { in: 'query', name: 'key', required: true },
    terms: YOUTUBE,
    signupUrl: 'https://console.cloud.google.com/apis/library/youtube.googleapis.com',
  },
  'youtube-feeds': { baseUrl: 'https://www.youtube.com', terms: YOUTUBE_FEEDS },
  // /pools returns every tracked pool in one body (10k+ pools, well over the 5 MB default).
  'defillama-yields': { baseUrl: 'https://yields.llama.fi', maxBytes: 48 * 1024 * 1024, terms: DEFILLAMA },
  'defillama-stablecoins': { baseUrl: 'https://stablecoins.llama.fi', terms: DEFILLAMA },
  'defillama-datasets': { baseUrl: 'https://defillama-datasets.llama.fi', terms: DEFILLAMA },
  dexscreener: { baseUrl: 'https://api.dexscreener.com', terms: DEXSCREENER },
  eia: {
    baseUrl: 'https://api.eia.gov',
    key: { in: 'query', name: 'api_key', required: true },
    terms: EIA,
    signupUrl: 'https://www.eia.gov/opendata/register.php',
  },
  lbma: { baseUrl: 'https://prices.lbma.org.uk', userAgent: 'browser', terms: LBMA },
  'gold-api': { baseUrl: 'https://api.gold-api.com', terms: GOLD_API },
  'alternative-me': { baseUrl: 'https://api.alternative.me', terms: ALTERNATIVE_ME },
  cryptopanic: {
    baseUrl: 'https://cryptopanic.com',
    key: { in: 'query', name: 'auth_token', required: true },
    terms: CRYPTOPANIC,
    signupUrl: 'https://cryptopanic.com/developers/api/',
  },
  'coindesk-rss': { baseUrl: 'https://www.coindesk.com', terms: COINDESK_RSS },
  /** Any OpenAI-compatible chat-completions server: agent-context plans goals no built-in rule matches with it. */
  llm: {
    baseUrl: 'https://api.openai.com',
    key: { in: 'header', name: 'authorization', required: true },
    terms: LLM,
    signupUrl: 'https://platform.openai.com/api-keys',
  },
  // Reddit app-only OAuth: UPSTREAM_REDDIT_AUTH_KEY=client_id:client_secret buys a token for oauth.reddit.com.
  'reddit-auth': {
    baseUrl: 'https://www.reddit.com',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    userAgent: 'identify',
    terms: REDDIT,
    signupUrl: 'https://www.reddit.com/prefs/apps',
  },
  reddit: { baseUrl: 'https://oauth.reddit.com', userAgent: 'identify', tokenFrom: 'reddit-auth', terms: REDDIT },
  'reddit-rss': { baseUrl: 'https://www.reddit.com', userAgent: 'identify', terms: REDDIT_RSS },
  // ACLED password grant: UPSTREAM_ACLED_KEY=email:password (the first ':' splits them).
  acled: {
    baseUrl: 'https://acleddata.com',
    key: { in: 'token', name: 'email:password', required: true },
    userAgent: 'identify',
    terms: ACLED,
    signupUrl: 'https://acleddata.com/api-documentation/getting-started',
  },
  gdelt: { baseUrl: 'https://api.gdeltproject.org', userAgent: 'identify', terms: GDELT },
  // Delphi Epidata (CDC FluView mirror): anonymous works at 100 requests/hour; a free api_key lifts it.
  'delphi-epidata': {
    baseUrl: 'https://api.delphi.cmu.edu',
    key: { in: 'query', name: 'api_key', required: false },
    terms: DELPHI_EPIDATA,
    signupUrl: 'https://api.delphi.cmu.edu/epidata/admin/registration_form',
  },
  who: { baseUrl: 'https://www.who.int', terms: WHO },
  // ReliefWeb API v2 takes no key but refuses calls without a pre-approved appname: UPSTREAM_RELIEFWEB_KEY=<appname>.
  reliefweb: {
    baseUrl: 'https://api.reliefweb.int',
    key: { in: 'query', name: 'appname', required: true },
    terms: RELIEFWEB,
    signupUrl: 'https://apidoc.reliefweb.int/parameters#appname',
  },
  // SEC answers 403 to agents without a name and contact address (SVC_USER_AGENT) and allows 10 requests/s.
  'sec-edgar': { baseUrl: 'https://www.sec.gov', userAgent: 'identify', terms: SEC },
  'sec-efts': { baseUrl: 'https://efts.sec.gov', userAgent: 'identify', terms: SEC },
  // `courtlistener-anon` is the same API without a key (anonymous v4 access is being phased out).
  courtlistener: {
    baseUrl: 'https://www.courtlistener.com',
    key: { in: 'header', name: 'authorization', scheme: 'Token', required: true },
    terms: COURTLISTENER,
    signupUrl: 'https://www.courtlistener.com/help/api/rest/',
  },
  'courtlistener-anon': { baseUrl: 'https://www.courtlistener.com', terms: COURTLISTENER_ANON },
  // Keyless; the optional key is a GoPlus access token (POST /api/v1/token with app_key + app_secret), sent as Bearer.
  gopluslabs: {
    baseUrl: 'https://api.gopluslabs.io',
    key: { in: 'header', name: 'authorization', required: false },
    terms: GOPLUSLABS,
    signupUrl: 'https://docs.gopluslabs.io/reference/api-overview',
  },
  zeromev: { baseUrl: 'https://data.zeromev.org', terms: ZEROMEV },
  // Blockscout explorers (keyless), one host per chain: `blockscout` is Ethereum mainnet.
  blockscout: { baseUrl: 'https://eth.blockscout.com', terms: BLOCKSCOUT },
  'blockscout-base': { baseUrl: 'https://base.blockscout.com', terms: BLOCKSCOUT },
  'blockscout-optimism': { baseUrl: 'https://optimism.blockscout.com', terms: BLOCKSCOUT },
  'blockscout-arbitrum': { baseUrl: 'https://arbitrum.blockscout.com', terms: BLOCKSCOUT },
  'blockscout-gnosis': { baseUrl: 'https://gnosis.blockscout.com', terms: BLOCKSCOUT },
  'hn-firebase': { baseUrl: 'https://hacker-news.firebaseio.com', terms: HN_FIREBASE },
  'hn-algolia': { baseUrl: 'https://hn.algolia.com', terms: HN_ALGOLIA },
  // GitHub refuses requests without a User-Agent; an optional token (sent as Bearer) lifts search from 10 to 30 calls/min.
  github: {
    baseUrl: 'https://api.github.com',
    key: { in: 'header', name: 'authorization', required: false },
    userAgent: 'identify',
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    terms: GITHUB,
    signupUrl: 'https://github.com/settings/tokens',
  },
  // HHS OCR breach portal: server-rendered JSF pages, no API and no key.
  'hhs-ocr': { baseUrl: 'https://ocrportal.hhs.gov', terms: HHS_OCR },
  okx: { baseUrl: 'https://www.okx.com', terms: OKX },
  // ENTSO-E Transparency Platform: the security token (granted on request by their helpdesk) goes in the query.
  entsoe: {
    baseUrl: 'https://web-api.tp.entsoe.eu',
    key: { in: 'query', name: 'securityToken', required: true },
    terms: ENTSOE,
    signupUrl: 'https://transparency.entsoe.eu/content/static_content/Static%20content/web%20api/Guide.html',
  },
  'energy-charts': { baseUrl: 'https://api.energy-charts.info', terms: ENERGY_CHARTS },
  // Unofficial JSON behind seecapitalmarkets.com's index pages (Baltic indices); public scrapers send these XHR
  // headers (terms of use unconfirmed).
  seecapitalmarkets: {
    baseUrl: 'https://seecapitalmarkets.com',
    userAgent: 'browser',
    headers: { 'x-requested-with': 'XMLHttpRequest', referer: 'https://seecapitalmarkets.com/indeksi' },
    terms: SEECAPITALMARKETS,
  },
  // Twitch app access token: UPSTREAM_TWITCH_AUTH_KEY=client_id:client_secret buys it; Helix (`twitch`) also gets
  // the client id as Client-Id.
  'twitch-auth': {
    baseUrl: 'https://id.twitch.tv',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    terms: TWITCH,
    signupUrl: 'https://dev.twitch.tv/console/apps',
  },
  twitch: { baseUrl: 'https://api.twitch.tv', tokenFrom: 'twitch-auth', terms: TWITCH },
  'steam-api': { baseUrl: 'https://api.steampowered.com', terms: STEAM_API },
  'steam-store': { baseUrl: 'https://store.steampowered.com', terms: STEAM_STORE },
  steamspy: { baseUrl: 'https://steamspy.com', terms: STEAMSPY },
  // OpenSky OAuth2 client credentials (required since 18 Mar 2026): UPSTREAM_OPENSKY_AUTH_KEY=client_id:client_secret
  // buys the token for `opensky`.
  'opensky-auth': {
    baseUrl: 'https://auth.opensky-network.org',
    key: { in: 'token', name: 'client_id:client_secret', required: true },
    terms: OPENSKY,
    signupUrl: 'https://opensky-network.org/my-opensky/account',
  },
  opensky: { baseUrl: 'https://opensky-network.org', tokenFrom: 'opensky-auth', terms: OPENSKY },
  // Keyless ADS-B aggregators serving the same ADSBExchange-v2 `point` API.
  'adsb-lol': { baseUrl: 'https://api.adsb.lol', terms: ADSB_LOL },
  'airplanes-live': { baseUrl: 'https://api.airplanes.live', terms: AIRPLANES_LIVE },
  openaq: {
    baseUrl: 'https://api.openaq.org',
    key: { in: 'header', name: 'x-api-key', required: true },
    terms: OPENAQ,
    signupUrl: 'https://explore.openaq.org/register',
  },
  'open-meteo-air': { baseUrl: 'https://air-quality-api.open-meteo.com', terms: OPEN_METEO },
  // Redfin's unofficial stingray endpoints answer browsers only (datacenter IPs often get 403).
  redfin: { baseUrl: 'https://www.redfin.com', userAgent: 'browser', headers: { referer: 'https://www.redfin.com/' }, terms: REDFIN },
  espn: { baseUrl: 'https://site.api.espn.com', terms: ESPN },
  // TheSportsDB v1 takes its key in the path; the fetcher uses the documented free key (123).
  thesportsdb: { baseUrl: 'https://www.thesportsdb.com', terms: THESPORTSDB },
} as const satisfies Record<string, HostSpec>;

export type HostName = keyof typeof HOSTS;

/** `open-meteo` + `URL` → `UPSTREAM_OPEN_METEO_URL`. */
export const hostEnvName = (name: string, suffix: 'URL' | 'KEY'): string =>
  `UPSTREAM_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${suffix}`;

/** The spec of a host by name (names from descriptors and config are plain strings). */
export const hostSpec = (name: string): HostSpec | undefined => (HOSTS as Record<string, HostSpec>)[name];

/** The host whose key a host uses: itself, or the host whose credentials buy its token (`tokenFrom`). */
export const keyHostOf = (name: string): string => hostSpec(name)?.tokenFrom ?? name;
