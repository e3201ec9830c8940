import { rowFreshness, rowsOf, type Miss } from './conformance-rules.js';
import { FRESH, type CatalogEntry, type Run } from './conformance-run.js';

/**
 * The `catalog` phase of the conformance check over HTTP: every type's catalog example, the worst-case free inputs,
 * deliberate refusals (each must carry the house body and the headers) and the caller's standing.
 */

/** The worst-case inputs of issue 35, item 2, that need no payment: the largest free answers an agent can ask for. */
function worstCases(types: CatalogEntry[], nowS: number) {
  const five = types.slice(0, 5).map((t) => ({ type: t.type, q: t.example }));
  return [
    { method: 'GET', path: '/api/v1/entity/list?limit=200' },
    { method: 'POST', path: '/api/data/bundle?free=1', body: { queries: five } },
    { method: 'GET', path: `/api/v1/backtest?type=crypto-price&q=BTC&interval=1m&from=${nowS - 30 * 86_400}&to=${nowS}&free=1` },
    { method: 'GET', path: `/api/v1/agent-context?goal=${encodeURIComponent('should I buy BTC this week?')}&free=1` },
    { method: 'GET', path: '/api/v1/snapshot' },
  ];
}

/** Deliberate refusals: every one must carry the house body and the headers. */
const REFUSALS = [
  { method: 'GET', path: '/api/v1/no-such-route' },
  { method: 'GET', path: '/api/data/preview?type=no-such-type' },
  { method: 'POST', path: '/api/data/bundle', body: { queries: [{ type: 'crypto-price', q: 'bitcoin' }] } },
  { method: 'GET', path: '/api/v1/backtest?type=crypto-price&q=BTC&from=1&to=2&tier=paid' },
];

export async function catalogChecks(run: Run, types: CatalogEntry[]): Promise<void> {
  run.log(`HTTP: ${types.length} catalog examples`);
  for (const { type, example } of types) {
    const x = await run.http('GET', `/api/data/preview?type=${type}&q=${encodeURIComponent(example)}`);
    run.measure(`GET preview ${type}`, x.body);
    run.check('http', 'catalog example answers 200', type, x.status === 200 ? undefined : `HTTP ${x.status}`);
    for (const row of rowsOf(x.body)) run.check('http', 'freshness fields on every row', type, rowFreshness(row), FRESH);
  }
  run.log('HTTP: worst-case inputs and refusals');
  for (const c of worstCases(types, Math.floor(Date.now() / 1000))) {
    const x = await run.http(c.method, c.path, { body: c.body });
    run.check('http', 'worst-case input answers 200', c.path, x.status === 200 ? undefined : `HTTP ${x.status}`);
    run.measure(`${c.method} ${c.path.split('?')[0]}`, x.body);
    for (const row of rowsOf(x.body)) run.check('http', 'freshness fields on every row', c.path, rowFreshness(row), FRESH);
  }
  for (const c of REFUSALS) await run.http(c.method, c.path, { body: c.body });
  const limits = await run.http('GET', '/api/v1/limits');
  run.check(
    'http',
    'GET /api/v1/limits: tier, rate, pass, spend_today',
    '/api/v1/limits',
    limitsMiss(limits.body as Record<string, unknown>),
  );
}

function limitsMiss(body: Record<string, unknown>): Miss {
  const missing = ['tier', 'rate', 'pass', 'spend_today'].filter((k) => !(k in body));
  return missing.length ? `lacks ${missing.join(', ')}` : undefined;
}
