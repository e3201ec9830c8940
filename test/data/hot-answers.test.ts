import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestHash } from '../../src/core/receipt.js';
import { matchesEtag } from '../../src/data/hot-answers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { coinGeckoAlone } from '../helpers/corroboration.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearOverrides();
  coinGeckoAlone(t.sim);
  t.sim.resetHits();
});
afterEach(() => {
  t.sim.clearFaults();
  vi.restoreAllMocks();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const verify = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: body._receipt, response: body } }).then((r) => r.json());
const price = (btc: number) => ({
  host: 'coingecko',
  path: '/api/v3/simple/price',
  body: { bitcoin: { usd: btc, last_updated_at: 1763812800 } },
});
const queryOf = (url: string) => Object.fromEntries(new URLSearchParams(url.split('?')[1]));

describe('hot answers of cached previews', () => {
  it('signs a cached body once a second: hits within it carry the same bytes, an ETag, and a receipt issued when it was signed', async () => {
    const url = '/api/data/preview?type=weather&q=51.5,-0.12';
    expect((await get(`${url}&max_age=0`)).json().cached).toBe(false);
    t.clock.advance(2_000);
    const first = await get(url);
    const signedAt = Math.floor(t.clock.now() / 1000);
    t.clock.advance(900);
    const again = await get(url);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toBe(first.body);
    expect(again.json()._receipt.issued_at).toBe(signedAt);
    expect(again.json()._receipt.request_hash).toBe(requestHash({ method: 'GET', path: '/api/data/preview', query: queryOf(url), body: null }));
    expect(await verify(again.json())).toMatchObject({ valid: true, issued_at: signedAt });
  });

  it('re-signs when the second ends: the row says its new age_s, and the new receipt covers it', async () => {
    const url = '/api/data/preview?type=weather&q=51.4,-0.1';
    const first = (await get(url)).json();
    t.clock.advance(1_000);
    const later = await get(url);
    expect(later.json().preview.age_s).toBe(first.preview.age_s + 1);
    expect(later.json()._receipt.issued_at).toBe(first._receipt.issued_at + 1);
    expect(await verify(later.json())).toMatchObject({ valid: true });
  });

  it('answers a matching If-None-Match with an empty 304, and a stale or foreign ETag with the full body', async () => {
    const url = '/api/data/preview?type=weather&q=48.85,2.35';
    await get(url);
    const full = await get(url);
    const etag = full.headers.etag as string;
    const notModified = await get(url, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['ratelimit']).toMatch(/^"anonymous";r=\d+;t=\d+$/);
    expect((await get(url, { 'if-none-match': `W/"other", ${etag}` })).statusCode).toBe(304);
    const foreign = await get(url, { 'if-none-match': '"someone-else"' });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.body).toBe(full.body);
  });

  it('never shares a receipt between requests whose request_hash differs, even with equal data', async () => {
    const plain = '/api/data/preview?type=weather&q=40.71,-74.01';
    const spaced = '/api/data/preview?type=weather&q=%2040.71,-74.01';
    await get(plain);
    const [a, b] = [(await get(plain)).json(), (await get(spaced)).json()];
    expect(b.q).toBe(a.q);
    expect(b._receipt.request_hash).not.toBe(a._receipt.request_hash);
    expect(b._receipt.request_hash).toBe(requestHash({ method: 'GET', path: '/api/data/preview', query: queryOf(spaced), body: null }));
    expect(await verify(b)).toMatchObject({ valid: true });
  });

  it('retires the kept answer when a newer value is stored, and when the value passes its TTL', async () => {
    const url = '/api/data/preview?type=crypto-price&q=bitcoin';
    t.sim.serve(price(90_000));
    await get(`${url}&max_age=0`);
    const old = await get(url);
    expect(old.json().preview.usd).toBe(90_000);
    t.sim.serve(price(91_000));
    await get(`${url}&max_age=0`);
    const fresh = await get(url);
    expect(fresh.json().preview.usd).toBe(91_000);
    expect(fresh.headers.etag).not.toBe(old.headers.etag);
    expect((await get(url, { 'if-none-match': old.headers.etag as string })).statusCode).toBe(200);

    t.clock.advance(3_600_000);
    const hits = t.sim.hits('coingecko');
    expect((await get(url)).json().cached).toBe(false);
    expect(t.sim.hits('coingecko')).toBe(hits + 1);
  });

  it('requests arriving while a stale answer is made again wait for it: one full path signs the body they all get', async () => {
    const url = '/api/data/preview?type=weather&q=52.52,13.4';
    await get(url);
    const before = await get(url);
    t.clock.advance(1_000); // the kept answer's second is over; the cached value is still fresh
    const fullPaths = vi.spyOn(t.deps.sources, 'run');
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(url)));
    expect(fullPaths).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map((answer) => answer.statusCode))).toEqual(new Set([200]));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
    expect(answers[0]!.json().preview.age_s).toBe(before.json().preview.age_s + 1);
    expect(await verify(answers[19]!.json())).toMatchObject({ valid: true });
  });

  it('does not hold requests for a stale answer whose value passed its TTL: they share one upstream round', async () => {
    const url = '/api/data/preview?type=weather&q=41.9,12.5';
    await get(url);
    await get(url);
    t.clock.advance(3_600_000);
    for (const host of ['open-meteo', 'met-no']) t.sim.fault(host, { kind: 'status', status: 500 });
    t.sim.resetHits();
    await get('/api/data/preview?type=weather&q=41.8,12.4');
    const oneRound = t.sim.hits();
    t.sim.resetHits();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(url)));
    expect(answers.map((answer) => answer.json().ok)).toEqual([false, false, false, false, false]);
    // Waiting for the first request's failure, the others would have asked the upstreams again after it.
    expect(t.sim.hits()).toBe(oneRound);
  });

  it('keeps no answer for since, as_of or max_age previews, nor for failures', async () => {
    const url = '/api/data/preview?type=weather&q=35.68,139.69';
    await get(url);
    const withMaxAge = await get(`${url}&max_age=600`);
    expect(withMaxAge.headers.etag).toBeUndefined();
    const cursor = (await get(url)).json()._cursor as string;
    expect((await get(`${url}&since=${encodeURIComponent(cursor)}`)).headers.etag).toBeUndefined();
  });

  it('sends a hot answer with every header the hooks set (request id, CORS, RateLimit fields) and counts it in the metrics', async () => {
    const url = '/api/data/preview?type=weather&q=48.85,2.35';
    await get(url); // fetched upstream
    const cold = await get(url); // from the cache: its signed bytes are kept
    const hot = await get(url, { origin: 'https://agent.example', 'x-request-id': 'hot-1' });
    expect(hot.body).toBe(cold.body);
    expect(hot.headers).toMatchObject({
      'x-request-id': 'hot-1',
      'access-control-allow-origin': 'https://agent.example',
      vary: 'Origin',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(cold.body)),
      etag: cold.headers.etag,
    });
    const remaining = (field: unknown) => Number(/;r=(\d+)/.exec(String(field))?.[1]);
    expect(hot.headers['ratelimit-policy']).toBe(cold.headers['ratelimit-policy']);
    expect(hot.headers['ratelimit-policy']).toMatch(/^"anonymous";q=\d+;w=60$/);
    expect(remaining(hot.headers.ratelimit)).toBeLessThan(remaining(cold.headers.ratelimit));
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/svc_http_requests_total\{method="GET",route="\/api\/data\/preview",status="200"\} [2-9]/);
  });

  it('a hot answer carries exactly the headers of the cold one, but date, the RateLimit figures and the ETag', async () => {
    const url = '/api/data/preview?type=weather&q=41.9,12.49';
    const headers = { origin: 'https://agent.example', 'x-request-id': 'same-request' };
    await get(url, headers); // fetched upstream
    const cold = await get(url, headers); // from the cache: signed through the onSend hooks, its bytes kept
    const hot = await get(url, headers);
    const comparable = (all: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(all).filter(([name]) => name !== 'date' && name !== 'etag' && !name.startsWith('ratelimit')));
    expect(hot.headers.etag).toBeDefined();
    expect(comparable(hot.headers)).toEqual(comparable(cold.headers));
  });

  it('the preview route runs only the hooks the hot path was reviewed against (see src/data/hot-answers.ts)', () => {
    // A kept answer leaves from the last onRequest hook (`serve`), so it skips preHandler and onSend: a hook added to
    // this route or globally does not run for it. Before changing this list, read src/data/hot-answers.ts and the
    // "Paths that bypass the framework" section of docs/architecture.md: the hot path may need the same change.
    const REVIEWED = [
      '• (onRequest) ["anonymous()","anonymous()","anonymous()","anonymous()","serve()"]',
      '• (preHandler) ["anonymous()"]',
      '• (onSend) ["anonymous()","anonymous()","anonymous()"]',
      // Without a logger (tests, LOG_LEVEL=silent) there is no request-line hook: src/plugins/request-log.ts.
      '• (onResponse) ["anonymous()","observe()"]',
    ];
    const lines = t.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
    const route = lines.findIndex((line) => line.endsWith('api/data/preview (GET)'));
    const hooks = lines.slice(route + 1, route + 1 + REVIEWED.length).map((line) => line.slice(line.indexOf('•')));
    expect(hooks, 'the preview route\'s hooks changed: does src/data/hot-answers.ts still send the same answer?').toEqual(REVIEWED);
  });

  it('still counts every hot answer against the rate limit, and in the protection stats', async () => {
    const limited = await startTestApp({ env: { SVC_RATE_ANON_PER_MIN: '3' }, redis: true });
    try {
      const url = '/api/data/preview?type=weather&q=1,1';
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await limited.app.inject({ url })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      const stats = (await limited.app.inject({ url: '/api/v1/protection/stats', remoteAddress: '10.9.9.9' })).json();
      // The stats request itself is the fourth allowed one.
      expect(stats).toMatchObject({ requests: 4, rate_limited: 2 });
    } finally {
      await limited.close();
    }
  });

  it('reads If-None-Match lists, weak forms and *', () => {
    expect(matchesEtag('"a", W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"a"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});
