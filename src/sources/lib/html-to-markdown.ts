import { importOnce } from '../../core/import-once.js';

export interface Article {
  title: string | null;
  byline: string | null;
  canonical_url: string;
  markdown: string;
  word_count: number;
  excerpt: string | null;
}

/** The DOM parser, Readability and a configured Turndown, loaded with the first HTML page. */
const loadConverters = importOnce(async () => {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  return {
    parseHTML,
    Readability,
    turndown: new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' }),
  };
});

const words = (text: string) => (text.match(/\S+/g) ?? []).length;

/** Readability extracts the article; Turndown writes it as markdown. Plain text passes through. */
export async function toMarkdown(body: string, contentType: string, url: string): Promise<Article> {
  if (contentType === 'text/plain') {
    return { title: null, byline: null, canonical_url: url, markdown: body.trim(), word_count: words(body), excerpt: null };
  }
  const { parseHTML, Readability, turndown } = await loadConverters();
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
