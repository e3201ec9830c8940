import { isPlainTopic } from '../sources/lib/gdelt.js';
import type { GoalFacts } from './plan.js';

const STOP_WORDS =
  /\b(news|headlines?|brief|briefing|about|on|the|latest|what|is|are|happening|happened|events?|me|give|a|of|in|today|for)\b/gi;

/** Short topics GDELT cannot search (under 3 characters), spelled out. */
const SPELLED_OUT: Record<string, string> = {
  ai: 'artificial intelligence',
  eu: 'european union',
  uk: 'united kingdom',
  us: 'united states',
  un: 'united nations',
  ev: 'electric vehicles',
  ml: 'machine learning',
  vr: 'virtual reality',
};

/**
 * The topic of a news goal, always one gdelt-events takes: the entity's first word, name or an alias, else the
 * goal without its filler words (a short acronym spelled out, a long one cut to 80 characters). A topic GDELT
 * cannot search as it is ("go", "x") is searched with "news" after it; a goal of filler words only is "markets".
 */
export function newsTopic(f: GoalFacts): string {
  const entity = f.entity;
  const candidates = entity
    ? [entity.name.split(/\s+/)[0]!, entity.name, ...entity.aliases]
    : [
        f.text
          .replace(STOP_WORDS, ' ')
          .replace(/[^\p{L}\p{N} ]/gu, ' ')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .slice(0, 3)
          .join(' '),
      ];
  const topics = candidates.map((c) => c.toLowerCase()).map((c) => (SPELLED_OUT[c] ?? c).slice(0, 80).trim());
  const first = topics[0];
  if (!first) return 'markets';
  return topics.find(isPlainTopic) ?? (isPlainTopic(`${first} news`) ? `${first} news` : 'markets');
}
