import { invalidQ } from '../core/errors.js';
import { checkUrl } from '../upstream/safe-fetch.js';
import { webFetch } from '../upstream/web-fetch.js';
import { UpstreamError } from '../upstream/errors.js';
import { toMarkdown } from './lib/html-to-markdown.js';
import { defineSource, type Row } from './define.js';

const MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const ACCEPT = ['text/html', 'application/xhtml+xml', 'text/plain'] as const;

/**
 * A malformed URL, another scheme or a non-public IP literal is a 400; names (and ports, which are configured)
 * are checked when fetched.
 */
export function parseUrl(q: string): string {
  const expected = 'an absolute http(s) URL to a public host';
  if (q.length > 2048) throw invalidQ(expected, 'https://example.com/', 'the URL is longer than 2048 characters');
  try {
    return checkUrl(q).href;
  } catch (e) {
    throw invalidQ(expected, 'https://example.com/', e instanceof UpstreamError ? e.message : 'not a valid URL');
  }
}

/**
 * Rows: url, final_url, canonical_url, title, byline, excerpt, word_count, markdown. The fetch is
 * SSRF-guarded (upstream/safe-fetch.ts): only public addresses on SVC_FETCH_ALLOWED_PORTS, every
 * redirect re-checked, the connection made to the checked address, 5 MB and the deadline at most
 * (upstream/web-fetch.ts, which also points it at the simulator when UPSTREAM_WEB_URL is set).
 */
export default defineSource<string>({
  type: 'scrape',
  categories: ['scraping', 'ai-agents'],
  qShape: '<url>',
  example: 'https://example.com/',
  desc: '`<url>`; returns page content as clean markdown',
  parseQ: parseUrl,
  ttlSeconds: 600,
  deadlineMs: 8000,
  upstreams: {
    web: async (url, { deadline, config }): Promise<Row[]> => {
      const page = await webFetch(url, config, { deadline, maxBytes: MAX_BYTES, maxRedirects: MAX_REDIRECTS, accept: ACCEPT });
      const article = await toMarkdown(page.body, page.contentType, url);
      if (!article.markdown) throw new UpstreamError('no_data', 'the page has no readable content');
      return [{ url, final_url: page.url, ...article }];
    },
  },
});
