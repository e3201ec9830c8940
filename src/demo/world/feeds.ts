import { roundTo } from '../../core/numbers.js';
import { epiweekOf } from '../../sources/lib/mmwr-week.js';
import { between, intBetween, pick } from '../random.js';
import type { DemoWorld } from '../world.js';
import type { Route, WorldRequest } from './types.js';
import { coinBySymbol } from './coins.js';
import { DEFI_ROUTES } from './defi.js';
import { GRID_ROUTES } from './grid.js';

/**
 * Feeds of the demo world: the fixtures' articles, filings and posts, moved to now and fitted to what was asked (the
 * form type, the subreddit, the flu region), and crypto headlines written from the world's own prices,
 * so a headline never names a price the quotes contradict. Scrape fetches a demo page for any URL.
 */
const DAY_S = 86_400;
const WEEK_S = 7 * DAY_S;
/** 1970-01-04, the first Sunday of Unix time. */
const weekStart = (t: number) => Math.floor((t - 3 * DAY_S) / WEEK_S) * WEEK_S + 3 * DAY_S;

/** EDGAR's latest filings of the asked form: the template feed's entries, filed under that form. */
function edgarCurrent(req: WorldRequest, world: DemoWorld): unknown {
  const form = req.params.get('type') ?? '8-K';
  const feed = world.template<string>('sec-edgar', '/cgi-bin/browse-edgar', req.nowS, { action: 'getcurrent', type: '8-K' });
  const escaped = form.replace(/&/g, '&amp;');
  return feed
    .replace(/term="8-K(\/A)?"/g, (_m, amended: string | undefined) => `term="${escaped}${amended ?? ''}"`)
    .replace(/<title>8-K(\/A)? - /g, (_m, amended: string | undefined) => `<title>${escaped}${amended ?? ''} - `);
}

/** A subreddit's hot listing: the template's posts, in the asked subreddit. */
function subredditHot(req: WorldRequest, world: DemoWorld): unknown {
  const name = req.match[1]!;
  const source = name === 'popular' || name === 'all' ? 'popular' : 'technology';
  const listing = JSON.stringify(world.template('reddit', `/r/${source}/hot`, req.nowS, { raw_json: '1' }));
  return source === 'popular' ? JSON.parse(listing) : JSON.parse(listing.replace(/technology/g, name));
}

/** Delphi FluView: the last weeks of ILINet for the asked region, each week's values from the template's level. */
function fluview(req: WorldRequest, world: DemoWorld): unknown {
  const region = req.params.get('regions') ?? 'nat';
  const body = world.template<{ epidata: Record<string, number | string>[] }>('delphi-epidata', '/epidata/fluview/', req.nowS, {
    regions: 'nat',
  });
  const row = body.epidata.at(-1)!;
  // A week runs Sunday to Saturday; CDC publishes it on the Friday after (noon), 12.5 days after it began.
  const latest = weekStart(req.nowS - 12.5 * DAY_S);
  const released = latest + 12 * DAY_S;
  const issue = epiweekOf(released * 1000);
  const epidata = [3, 2, 1, 0].map((back) => {
    const start = latest - back * WEEK_S;
    const wili = roundTo(2.2 * Math.exp(between(world.seed, `flu:${region}@${start}`, -0.25, 0.25)), 5);
    const patients = Math.round(Number(row.num_patients) * (region === 'nat' ? 1 : 0.1));
    return {
      ...row,
      release_date: new Date(released * 1000).toISOString().slice(0, 10),
      region,
      issue,
      epiweek: epiweekOf((start + DAY_S) * 1000),
      lag: back + 1,
      num_patients: patients,
      num_ili: Math.round((patients * wili) / 100),
      wili,
      ili: roundTo(wili * 0.98, 5),
    };
  });
  return { ...body, epidata };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** scrape: a page the demo world serves for any URL (the fixture's article at its own path). */
function webPage(req: WorldRequest): string {
  const path = escapeHtml(req.path);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc demo page</title></head>
<body><main><article>
<h1>svc demo page</h1>
<p>This page is served by the svc demo world (SVC_DEMO=1) in place of the address you asked for, path ${path}. In the demo,
scrape fetches every URL from the built-in simulator: the service runs its real fetch, readability and markdown
conversion on this page, and the answer says source_mode "demo".</p>
<p>Run svc without SVC_DEMO to fetch the real page. The fetch is guarded: only public addresses on the allowed ports,
every redirect checked again, at most 5 MB within the deadline.</p>
</article></main></body></html>
`;
}

const HEADLINES: ((c: { name: string; symbol: string; price: string; move: number; up: boolean }) => string)[] = [
  (c) => `${c.name} ${c.up ? 'climbs' : 'slips'} ${Math.abs(c.move)}% over the day to ${c.price}`,
  (c) => `${c.symbol} traders eye ${c.price} as funding turns ${c.up ? 'positive' : 'negative'}`,
  (c) => `Spot ${c.name} funds ${c.up ? 'extend inflows' : 'see outflows'} with ${c.symbol} near ${c.price}`,
  (c) => `On-chain data: ${c.name} exchange balances ${c.up ? 'fall' : 'rise'} for a third day`,
  (c) => `${c.name} volatility ${Math.abs(c.move) > 3 ? 'jumps' : 'stays muted'} with ${c.symbol} at ${c.price}`,
];

/** CryptoPanic hot posts for a coin: one headline every two hours, written from the world's price and 24 h move then. */
function cryptoPanic(req: WorldRequest, world: DemoWorld): unknown {
  const symbol = (req.params.get('currencies') ?? 'BTC').split(',')[0]!.toUpperCase();
  const coin = coinBySymbol(world.market, symbol);
  const slot = Math.floor(req.nowS / 7200);
  const results = coin
    ? Array.from({ length: 10 }, (_, i) => {
        const at = (slot - i) * 7200 + intBetween(world.seed, `post:${symbol}@${slot - i}`, 0, 7199);
        const price = world.market.usd(symbol, at);
        const move = roundTo(world.market.change(`crypto:${symbol}`, at) * 100, 1);
        const shown = `$${price >= 100 ? Math.round(price).toLocaleString('en-US') : price.toPrecision(4)}`;
        const title = pick(
          world.seed,
          `headline:${symbol}@${slot - i}`,
          HEADLINES,
        )({ name: coin.name, symbol, price: shown, move, up: move >= 0 });
        const published = new Date(at * 1000).toISOString().replace('.000Z', 'Z');
        return { title, description: null, published_at: published, created_at: published, kind: 'news' };
      }).filter((p) => Date.parse(p.published_at) / 1000 <= req.nowS)
    : [];
  return { next: null, previous: null, results };
}

const FEAR_GREED: [number, string][] = [
  [25, 'Extreme Fear'],
  [45, 'Fear'],
  [56, 'Neutral'],
  [76, 'Greed'],
  [101, 'Extreme Greed'],
];

/** alternative.me's daily index (updated at 00:00 UTC), following bitcoin's week: greed after a rise, fear after a fall. */
function fearGreed(req: WorldRequest, world: DemoWorld): unknown {
  const day = Math.floor(req.nowS / DAY_S) * DAY_S;
  const value = Math.round(Math.min(95, Math.max(5, 50 + 400 * world.market.change('crypto:BTC', day, WEEK_S))));
  const label = FEAR_GREED.find(([below]) => value < below)![1];
  return {
    name: 'Fear and Greed Index',
    data: [
      { value: String(value), value_classification: label, timestamp: String(day), time_until_update: String(day + DAY_S - req.nowS) },
    ],
    metadata: { error: null },
  };
}

export const FEED_ROUTES: Route[] = [
  { host: 'sec-edgar', path: /^\/cgi-bin\/browse-edgar$/, answer: edgarCurrent },
  { host: 'reddit', path: /^\/r\/([A-Za-z0-9_]+)\/hot$/, answer: subredditHot },
  { host: 'delphi-epidata', path: /^\/epidata\/fluview\/$/, answer: fluview },
  { host: 'web', path: /^\/$|^\/(?!articles\/solar-record$).*/, answer: webPage },
  { host: 'cryptopanic', path: /^\/api\/developer\/v2\/posts\/$/, answer: cryptoPanic },
  { host: 'alternative-me', path: /^\/fng\/$/, answer: fearGreed },
  ...DEFI_ROUTES,
  ...GRID_ROUTES,
];
