import { parseFeed } from '../upstream/formats/feed.js';
import { whyNot } from './lib/q.js';
import { Fng, Posts } from '../upstream/formats/sentiment.js';
import { invalidQ } from '../core/errors.js';
import { noData } from '../upstream/errors.js';
import { cryptoBySymbol } from './lib/entities.js';
import { defineSource, type FetchContext, type Row } from './define.js';
import { parseUnixSeconds } from '../core/clock.js';

const SYMBOL = /^[A-Z0-9]{2,10}$/;
const MAX_HEADLINES = 10;

export function assetSymbol(q: string): string {
  const symbol = q.toUpperCase();
  if (!SYMBOL.test(symbol)) throw invalidQ('<asset_symbol> (2-10 letters or digits, e.g. BTC)', 'BTC', whyNot(q, 'an asset symbol'));
  return symbol;
}

export interface Headline {
  title: string;
  url: string | null;
  source: string | null;
  published_at: number;
}
interface FearGreed {
  value: number;
  label: string;
  at: number;
}

export function fromFng(raw: Fng): FearGreed | null {
  const latest = raw.data[0];
  return latest ? { value: Number(latest.value), label: latest.value_classification, at: Number(latest.timestamp) } : null;
}

export const fromCryptoPanic = (raw: Posts): Headline[] =>
  raw.results.map((p) => ({
    title: p.title,
    url: p.original_url ?? p.url ?? null,
    source: p.source?.title ?? null,
    published_at: parseUnixSeconds(p.published_at),
  }));

/** Items of an RSS 2.0 feed whose title names the asset: its symbol as a word, or a known name. */
export function fromRss(text: string, feed: string, symbol: string): Headline[] {
  const items = parseFeed(text, feed);
  const names = cryptoBySymbol(symbol).flatMap((e) => [e.name, ...e.aliases]);
  const mentions = new RegExp(`\\b(${[symbol, ...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'i');
  return items.flatMap((i) =>
    i.title !== null && mentions.test(i.title)
      ? [{ title: i.title, url: i.link, source: feed, published_at: parseUnixSeconds(i.date ?? '') }]
      : [],
  );
}

/** The score is a bonus: headlines without it are still an answer, so its failure only leaves it null. */
async function fearGreed({ upstream, deadline }: FetchContext): Promise<FearGreed | null> {
  try {
    return fromFng(await upstream('alternative-me').json<Fng>('/fng/', Fng, { deadline, query: { limit: 1, format: 'json' } }));
  } catch {
    return null;
  }
}

export function toRows(symbol: string, headlines: Headline[], index: FearGreed | null): Row[] {
  const newest = [...headlines].sort((a, b) => b.published_at - a.published_at).slice(0, MAX_HEADLINES);
  if (newest.length === 0) throw noData(`no recent headline mentions ${symbol}`);
  return [
    {
      symbol,
      // The index scores the crypto market as a whole, not the asked asset.
      fear_greed_scope: 'crypto_market',
      fear_greed_value: index?.value ?? null,
      fear_greed_label: index?.label ?? null,
      fear_greed_at: index?.at ?? null,
      headlines: newest,
      as_of: newest[0]!.published_at,
    },
  ];
}

const withIndex = async (symbol: string, ctx: FetchContext, headlines: (deadline: number) => Promise<Headline[]>) => {
  const [items, index] = await Promise.all([headlines(ctx.deadline), fearGreed(ctx)]);
  return toRows(symbol, items, index);
};

const rss = (feed: string, path: string) => async (symbol: string, ctx: FetchContext) =>
  withIndex(symbol, ctx, (deadline) => ctx.http.text(path, { deadline }).then((text) => fromRss(text, feed, symbol)));

/**
 * Rows (one): symbol, fear_greed_scope (`crypto_market`: the score is market-wide, the same for every asset),
 * fear_greed_value (0-100, the crypto Fear & Greed Index by alternative.me), fear_greed_label, fear_greed_at (Unix s),
 * headlines [{title, url, source, published_at}] about the asset (newest first, up to 10).
 */
export default defineSource<string>({
  type: 'sentiment-ticker',
  categories: ['crypto', 'trader', 'sentiment'],
  qShape: '<asset_symbol>',
  example: 'BTC',
  desc: '`<asset_symbol>`; hot headlines about the asset plus the market-wide crypto fear/greed score',
  parseQ: assetSymbol,
  keyOf: (symbol) => symbol,
  ttlSeconds: 600,
  deadlineMs: 6000,
  entityQ: (e) => (e.type === 'crypto' ? e.ids.symbol : undefined),
  upstreams: {
    cryptopanic: (symbol, ctx) =>
      withIndex(symbol, ctx, (deadline) =>
        ctx.http
          .json<Posts>('/api/developer/v2/posts/', Posts, {
            deadline,
            query: { currencies: symbol, filter: 'hot', public: true, kind: 'news' },
          })
          .then(fromCryptoPanic),
      ),
    'coindesk-rss': rss('CoinDesk', '/arc/outboundfeeds/rss/'),
  },
});
