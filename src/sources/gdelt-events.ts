import { phrase, searchArticles, topic } from './lib/gdelt.js';
import { defineSource } from './define.js';

const MAX = 25;

/**
 * Rows: title, url, domain, language, source_country, image_url, seen_at (Unix s, when GDELT first saw
 * the article; also as_of). Newest first, last 24 hours, syndicated duplicates dropped.
 */
export default defineSource<string>({
  type: 'gdelt-events',
  categories: ['news', 'geopolitics', 'global'],
  qShape: '<topic>',
  example: 'climate',
  desc: '`<topic>`; global news article search',
  parseQ: topic('<topic>', 'climate'),
  keyOf: (t) => t,
  // GDELT allows one request per 5 s and sheds load with 429s: cache generously.
  ttlSeconds: 900,
  deadlineMs: 8000,
  upstreams: {
    gdelt: (t, ctx) => searchArticles(phrase(t), MAX, ctx),
  },
});
