import type { HostSpec } from './hosts.js';

/** The commercial terms of every upstream provider, as HostSpec.terms states them (src/upstream/hosts.ts). */

type Terms = NonNullable<HostSpec['terms']>;
const terms =
  (commercial: Terms['commercial']) =>
  (url: string, note?: string): Terms => ({ commercial, url, ...(note ? { note } : {}) });
/** Commercial use allowed (attribution and fair-use rules may apply: see the note). */
export const allowed = terms('allowed');
/** Commercial use needs a paid plan or a licence. */
export const paidPlan = terms('paid plan');
/** Not confirmed by the provider's own terms, or they forbid what svc does: the URL is the page checked. */
export const unclear = terms('unclear');

// Each provider's terms as its pages state them (checked 2026-11); `unclear` where they could not be confirmed.
export const COINGECKO = unclear('https://www.coingecko.com/en/api_terms', 'keyless and Demo use ask for attribution; paid plans exist');
export const BINANCE = unclear(
  'https://www.binance.com/en/terms',
  "market data under Binance's general terms; answers 451 in restricted regions",
);
export const OPEN_METEO = paidPlan(
  'https://open-meteo.com/en/terms',
  'free API for non-commercial use only; commercial use needs an API plan',
);
export const MET_NO = allowed('https://api.met.no/doc/TermsOfService', 'CC BY 4.0, credit MET Norway; identify yourself in the User-Agent');
export const FRED = unclear('https://fred.stlouisfed.org/docs/api/terms_of_use.html', "some series need their owner's permission");
export const FRED_GRAPH = unclear('https://fred.stlouisfed.org/legal/', 'website download; the same series copyrights as the API');
export const YAHOO = unclear('https://legal.yahoo.com/us/en/yahoo/terms/otos/index.html', 'unofficial; no automated or commercial use');
export const FRANKFURTER = allowed('https://frankfurter.dev/', 'open source, keyless; ECB reference rates, reusable with the source named');
export const FINNHUB = paidPlan('https://finnhub.io/terms-of-service', 'free keys: personal, non-professional use only');
export const OPEN_ER_API = unclear(
  'https://www.exchangerate-api.com/terms',
  'attribution required; re-distributing the rates is not allowed',
);
export const GECKOTERMINAL = unclear('https://www.coingecko.com/en/api_terms', 'keyless; CoinGecko terms, attribution requested');
export const ETHERSCAN = unclear('https://etherscan.io/terms', 'free keys with a call quota; attribution "Powered by Etherscan" requested');
export const BINANCE_FUTURES = unclear('https://www.binance.com/en/terms', 'answers 451 to US and other restricted regions');
export const BYBIT = unclear(
  'https://www.bybit.com/en/help-center/article/Terms-of-Service',
  'answers 403 to US and other restricted regions',
);
export const KRAKEN = unclear('https://www.kraken.com/legal');
export const COINBASE_EXCHANGE = unclear('https://www.coinbase.com/legal/user_agreement');
export const ETH_RPC = unclear('https://www.publicnode.com/', 'free public RPC without stated usage terms');
export const WEB = unclear('https://www.rfc-editor.org/rfc/rfc9309', 'whatever the scraped site allows: check its terms and robots.txt');
export const YOUTUBE = allowed(
  'https://developers.google.com/youtube/terms/api-services-terms-of-service',
  'quota and display rules apply',
);
export const YOUTUBE_FEEDS = unclear('https://www.youtube.com/t/terms', 'public RSS feeds under the YouTube terms');
export const DEFILLAMA = unclear('https://defillama.com/docs/api', 'free, keyless open API without stated commercial terms');
export const DEXSCREENER = unclear('https://docs.dexscreener.com/api/api-terms-and-conditions');
export const EIA = allowed(
  'https://www.eia.gov/about/copyrights_reuse.php',
  'US government data, public domain; the free key only meters use',
);
export const LBMA = paidPlan('https://www.lbma.org.uk/prices-and-data/precious-metal-prices', 'licensed by ICE Benchmark Administration');
export const GOLD_API = unclear('https://gold-api.com/');
export const ALTERNATIVE_ME = unclear(
  'https://alternative.me/crypto/fear-and-greed-index/',
  'free; attribution asked; commercial use not stated',
);
export const CRYPTOPANIC = unclear('https://cryptopanic.com/developers/api/', 'free keys with a quota; commercial terms not stated');
export const COINDESK_RSS = unclear('https://www.coindesk.com/terms', 'headlines from the public RSS feed');
export const LLM = paidPlan('https://openai.com/policies/services-agreement/', 'a paid API: use is billed per token');
export const REDDIT = paidPlan('https://redditinc.com/policies/data-api-terms', 'commercial use needs an agreement with Reddit');
export const REDDIT_RSS = paidPlan('https://redditinc.com/policies/data-api-terms', 'the public feeds fall under the Data API terms too');
export const ACLED = unclear('https://acleddata.com/terms-of-use/', 'registered access; commercial use is licensed separately');
export const GDELT = allowed(
  'https://www.gdeltproject.org/about.html#termsofuse',
  'free for any use, commercial included, with a citation',
);
export const DELPHI_EPIDATA = unclear('https://cmu-delphi.github.io/delphi-epidata/', 'follows each source (FluView: CDC, public domain)');
export const WHO = unclear('https://www.who.int/about/policies/publishing/copyright', 'CC BY-NC-SA 3.0 IGO: non-commercial');
export const RELIEFWEB = unclear(
  'https://reliefweb.int/terms-conditions',
  'content belongs to its sources; the API needs a pre-approved appname',
);
export const SEC = allowed('https://www.sec.gov/os/accessing-edgar-data', 'public domain; 10 requests/s, identifying User-Agent');
export const COURTLISTENER = unclear('https://www.courtlistener.com/terms/', 'court records are public; API access is free with a token');
export const COURTLISTENER_ANON = unclear('https://www.courtlistener.com/terms/', 'anonymous API access is being phased out');
export const GOPLUSLABS = unclear('https://gopluslabs.io/terms-of-service', 'keyless with a quota; commercial terms not stated');
export const ZEROMEV = unclear('https://info.zeromev.org/api.html');
export const BLOCKSCOUT = unclear('https://docs.blockscout.com/devs/apis', 'keyless public explorer API; terms not stated');
export const HN_FIREBASE = unclear('https://github.com/HackerNews/API', 'the official API states no terms of use');
export const HN_ALGOLIA = unclear('https://hn.algolia.com/api', 'search API run by Algolia; terms not stated');
export const GITHUB = allowed('https://docs.github.com/en/site-policy/github-terms/github-terms-of-service');
export const HHS_OCR = allowed('https://www.usa.gov/government-copyright', 'US government records, public domain');
export const OKX = unclear('https://www.okx.com/help/terms-of-service');
export const ENTSOE = unclear('https://transparency.entsoe.eu/', 'reuse with attribution; commercial terms not confirmed');
export const ENERGY_CHARTS = allowed('https://api.energy-charts.info/', 'Fraunhofer ISE data under CC BY 4.0');
export const SEECAPITALMARKETS = unclear(
  'https://seecapitalmarkets.com/indeksi',
  'unofficial JSON; indices licensed by the Baltic Exchange',
);
export const TWITCH = allowed(
  'https://www.twitch.tv/p/en/legal/developer-agreement/',
  'allowed under the Twitch Developer Services Agreement',
);
export const STEAM_API = unclear('https://steamcommunity.com/dev/apiterms');
export const STEAM_STORE = unclear('https://store.steampowered.com/subscriber_agreement/', 'unofficial store endpoints');
export const STEAMSPY = unclear('https://steamspy.com/about', 'estimates from a third party; terms not stated');
export const OPENSKY = paidPlan('https://opensky-network.org/about/terms-of-use', 'non-commercial use; commercial use needs a licence');
export const ADSB_LOL = allowed('https://api.adsb.lol/docs', 'open data under ODbL 1.0 (attribution, share-alike)');
export const AIRPLANES_LIVE = unclear(
  'https://airplanes.live/api-guide/',
  'free API for non-commercial use; commercial use by arrangement',
);
export const OPENAQ = allowed('https://docs.openaq.org/about/terms', 'free keys; most data CC BY 4.0 (terms follow each source)');
export const REDFIN = unclear('https://www.redfin.com/about/terms-of-use', 'unofficial; automated and commercial use restricted');
export const ESPN = unclear('https://disneytermsofuse.com/english/', 'unofficial endpoints without published terms');
export const THESPORTSDB = unclear('https://www.thesportsdb.com/documentation', 'the free key 123 is limited; premium keys are sold');
