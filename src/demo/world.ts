import type { Fixture } from '../upstream/fixtures.js';
import { Market } from './market.js';
import { Templates } from './templates.js';
import { CRYPTO_ROUTES } from './world/crypto.js';
import { TRADFI_ROUTES } from './world/tradfi.js';
import { EARTH_ROUTES } from './world/earth.js';
import { CHAIN_ROUTES } from './world/chain.js';
import { FEED_ROUTES } from './world/feeds.js';
import { SPOT_TICKER_ROUTES } from './world/spot-tickers.js';
import { QUOTE_ROUTES } from './world/quotes.js';
import type { Perturbation } from './perturb.js';
import { Reply, type Route, type WorldRequest } from './world/types.js';

/**
 * The demo world: one seeded state of markets, weather, chains and feeds, defined at every instant, that every
 * upstream the service calls is read from. A request is answered by the route for its host and path (values computed
 * from the world at the request's instant, in that upstream's wire format, often on a fixture's answer as the
 * template), else by the best-matching fixture moved to that instant. The same instant always gives the same answer.
 */
export class DemoWorld {
  readonly market: Market;
  private readonly templates: Templates;
  private readonly routes: Route[] = [
    ...CRYPTO_ROUTES,
    ...SPOT_TICKER_ROUTES,
    ...QUOTE_ROUTES,
    ...TRADFI_ROUTES,
    ...EARTH_ROUTES,
    ...CHAIN_ROUTES,
    ...FEED_ROUTES,
  ];

  constructor(
    readonly seed: number,
    fixtures: Fixture[],
    private readonly perturbations = new Map<string, Perturbation>(),
  ) {
    this.market = new Market(seed);
    this.templates = new Templates(fixtures);
  }

  /** How SVC_DEMO_PERTURB makes this upstream wrong, if it does. */
  perturbation(host: string): Perturbation | undefined {
    return this.perturbations.get(host);
  }

  /** The world's answer to an upstream request, or undefined when no route or template knows it. */
  answer(request: Omit<WorldRequest, 'match'>): Reply | undefined {
    for (const route of this.routes) {
      if (route.host !== request.host || (route.method ?? 'GET') !== request.method) continue;
      const match = route.path.exec(request.path);
      if (!match) continue;
      const body = route.answer({ ...request, match }, this);
      if (body !== undefined) return body instanceof Reply ? body : new Reply(200, body);
    }
    const template = this.templates.find(request.host, request.method, request.path, request.params, request.body);
    return template && new Reply(template.exchange.status ?? 200, this.templates.body(template, request.nowS), template.exchange.headers);
  }

  /** The fixture answer for this host and path (and the query parameters that pick among several), moved to `nowS`. */
  template<T = unknown>(host: string, path: string, nowS: number, query: Record<string, string> = {}, method = 'GET'): T {
    const template = this.templates.find(host, method, path, new URLSearchParams(query));
    if (!template) throw new Error(`demo world: no template for ${host} ${path}`);
    return this.templates.body(template, nowS) as T;
  }
}
