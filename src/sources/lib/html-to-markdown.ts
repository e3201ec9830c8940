import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';

export interface Article {
  title: string | null;
  byline: string | null;
  canonical_url: string;
  markdown: string;
  word_count: number;
  excerpt: string | null;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });

const words = (text: string) => (text.match(/\S+/g) ?? []).length;

/** Readability extracts the article; Turndown writes it as markdown. Plain text passes through. */
export function toMarkdown(body: string, contentType: string, url: string): Article {
  if (contentType === 'text/plain') {
    return { title: null, byline: null, canonical_url: url, markdown: body.trim(), word_count: words(body), excerpt: null };
  }
  const { document } = parseHTML(body);
  const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute('href');
  const article = new Readability(document).parse();
  const html = article?.content ?? document.body?.innerHTML ?? '';
  const markdown = turndown.turndown(html).trim();
  return {
    title: article?.title || document.title || null,
    byline: article?.byline ?? null,
    canonical_url: canonical ? new URL(canonical, url).href : url,
    markdown,
    word_count: words(article?.textContent ?? markdown),
    excerpt: article?.excerpt ?? null,
  };
}
