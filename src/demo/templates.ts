import type { Exchange, Fixture } from '../upstream/fixtures.js';
import { FIXTURE_EPOCH_S, newestTime, shiftTimes } from './time-shift.js';

/**
 * The fixtures as templates of the upstream wire formats: the demo world answers a request with the exchange that
 * matches it best, its times moved so the answer is as fresh as that upstream's real one (see FRESHNESS), and lets a
 * world handler fill in its own values. The fixture files themselves are never changed.
 */
interface Freshness {
  /** How old the newest time in a real answer is; default: as old as it was in the fixture at FIXTURE_EPOCH. */
  lagS?: number;
  /** The answer moves forward in steps this long (a real feed changes when something new is published). */
  stepS: number;
}

const DAY_S = 86_400;
const DEFAULT: Freshness = { stepS: 900 };
/** Where a fixture's own age is not that of the live upstream (it was written on a Sunday: weekday feeds looked old). */
const FRESHNESS: Record<string, Freshness> = {
  'sec-edgar': { lagS: 300, stepS: 300 },
  'gdelt-events': { lagS: 900, stepS: 900 },
  'legal-courtlistener': { lagS: DAY_S / 2, stepS: DAY_S },
  'sports-scores': { stepS: DAY_S },
  'steam-top': { stepS: DAY_S },
  'token-unlock': { stepS: DAY_S },
  breach: { stepS: DAY_S },
  'real-estate-rss': { stepS: DAY_S },
};

export interface Template {
  type: string;
  exchange: Exchange;
}

function matchScore(exchange: Exchange, method: string, path: string, params: URLSearchParams, body: string): number {
  if ((exchange.method ?? 'GET') !== method || exchange.path !== path) return -1;
  if (exchange.body_contains !== undefined && !body.includes(exchange.body_contains)) return -1;
  const wanted = Object.entries(exchange.query ?? {});
  const matched = wanted.filter(([k, v]) => params.get(k) === v).length;
  return (matched === wanted.length ? 1000 : 0) + matched;
}

export class Templates {
  private readonly all: Template[];
  private readonly newest = new Map<string, number>();
  private readonly shifted = new Map<Exchange, { by: number; body: unknown }>();

  constructor(fixtures: Fixture[]) {
    this.all = fixtures.flatMap((f) => [...f.exchanges, ...(f.fallback?.exchanges ?? [])].map((exchange) => ({ type: f.type, exchange })));
    for (const f of fixtures) {
      const text = JSON.stringify([f.exchanges, f.fallback?.exchanges ?? []]);
      this.newest.set(f.type, newestTime(text, FIXTURE_EPOCH_S) ?? FIXTURE_EPOCH_S);
    }
  }

  /** The exchange answering this request best: the same path (and body text), then as many query parameters as possible. */
  find(host: string, method: string, path: string, params = new URLSearchParams(), body = ''): Template | undefined {
    let best: Template | undefined;
    let bestScore = -1;
    for (const t of this.all) {
      if (t.exchange.host !== host) continue;
      const score = matchScore(t.exchange, method, path, params, body);
      if (score > bestScore) [best, bestScore] = [t, score];
    }
    return best;
  }

  /** How far this type's templates move forward at `nowS` (a multiple of its step). */
  shiftAt(type: string, nowS: number): number {
    const { lagS, stepS } = FRESHNESS[type] ?? DEFAULT;
    const anchor = lagS === undefined ? FIXTURE_EPOCH_S : this.newest.get(type)! + lagS;
    return Math.floor((nowS - anchor) / stepS) * stepS;
  }

  /** The template's body as the upstream would send it at `nowS` (a fresh copy: handlers may change it). */
  body(template: Template, nowS: number): unknown {
    const by = this.shiftAt(template.type, nowS);
    let cached = this.shifted.get(template.exchange);
    if (cached?.by !== by) {
      const { body } = template.exchange;
      const moved = shiftTimes(typeof body === 'string' ? body : JSON.stringify(body), by);
      cached = { by, body: typeof body === 'string' ? moved : (JSON.parse(moved) as unknown) };
      this.shifted.set(template.exchange, cached);
    }
    return typeof cached.body === 'string' ? cached.body : structuredClone(cached.body);
  }
}
