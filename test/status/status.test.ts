import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { registry } from '../../src/sources/registry.js';
import type { StatusReport } from '../../src/status/service.js';
import type { HostStatus, TypeStatus } from '../../src/status/view.js';

let t: TestApp;
beforeAll(async () => {
  // No FRED or Twitch credentials: economic-indicator falls back to fred-graph, twitch-top has nothing keyless.
  t = await startTestApp({ env: { UPSTREAM_FRED_KEY: '', UPSTREAM_TWITCH_AUTH_KEY: '' } });
});
afterAll(() => t.close());
afterEach(() => {
  t.sim.clearFaults();
  t.sim.clearOverrides();
  t.deps.upstream.resetBreakers();
});

const fetchFresh = async (type: string, q: string) => {
  const res = await t.app.inject({ url: `/api/data/preview?type=${type}&q=${encodeURIComponent(q)}&max_age=0` });
  expect(res.statusCode).toBe(200);
  return res.json<{ ok: boolean; error?: string }>();
};
const status = async () => {
  const res = await t.app.inject({ url: '/api/v1/status' });
  expect(res.statusCode).toBe(200);
  return res.json<StatusReport>();
};
const typeOf = (report: StatusReport, type: string) => report.types.find((x) => x.type === type)!;
const hostOf = (report: StatusReport, name: string) => report.upstreams.find((x) => x.name === name)!;
const nowS = () => Math.floor(t.clock.now() / 1000);

describe('GET /api/v1/status', () => {
  it('lists every data type and every upstream host; before any fetch a type is not_called, or needs_key without a keyless upstream', async () => {
    const report = await status();
    expect(report.types.map((x) => x.type)).toEqual(registry.types());
    expect(report.types).toHaveLength(43);
    expect(report).toMatchObject({ generated_at: nowS(), window_s: 900, instances: 1 });
    expect(typeOf(report, 'forex')).toEqual<TypeStatus>({
      type: 'forex',
      state: 'not_called',
      reason: 'not fetched since this service started',
      terms: { commercial: 'allowed', url: expect.stringMatching(/^https:\/\//) as string, note: expect.any(String) as string },
      source: null,
      primary: null,
      upstreams: ['frankfurter', 'open-er-api', 'yahoo'],
      checked_at: null,
      results: { ok: 0, degraded: 0, failed: 0 },
      // forex is corroborated: its rule, and each source not heard from yet (docs/corroboration.md, "Operations").
      corroboration: {
        rule: { quorum: 2, outlier_bps: 100, stale_after_s: 180_000, quote: null },
        answering: 0,
        answering_in_quote: 0,
        outlook: 'unknown',
        last_status: null,
        sources: ['frankfurter', 'open-er-api', 'yahoo'].map((source) => ({ source, state: 'not_called' })),
      },
    });
    expect(typeOf(report, 'twitch-top')).toMatchObject({
      state: 'needs_key',
      reason: 'every upstream needs a key: set UPSTREAM_TWITCH_AUTH_KEY',
      needs_key: 'UPSTREAM_TWITCH_AUTH_KEY',
      signup_url: 'https://dev.twitch.tv/console/apps',
    });
    expect(report.summary.needs_key).toBe(report.types.filter((x) => x.state === 'needs_key').length);
    expect(Object.values(report.summary).reduce((a, b) => a + b, 0)).toBe(43);
    expect(hostOf(report, 'fred')).toMatchObject<Partial<HostStatus>>({
      key: 'required',
      key_variable: 'UPSTREAM_FRED_KEY',
      key_configured: false,
      signup_url: 'https://fredaccount.stlouisfed.org/apikeys',
      calls: 0,
      success_rate: null,
      latency_ms: null,
      last_error: null,
      circuit: 'closed',
    });
    expect(hostOf(report, 'coingecko')).toMatchObject({ key: 'optional', key_configured: true });
    const text = JSON.stringify(report);
    expect(text).not.toContain('sim-key'); // keys never appear, only whether one is configured
    expect(text).not.toContain(t.sim.url); // nor the upstreams' addresses
  });

  it('says working with the upstream that answered, and counts the call with its latency', async () => {
    expect((await fetchFresh('crypto-price', 'bitcoin,ethereum')).ok).toBe(true);
    const report = await status();
    expect(typeOf(report, 'crypto-price')).toMatchObject({
      state: 'working',
      reason: 'coingecko answered',
      source: 'coingecko',
      primary: 'coingecko',
      checked_at: nowS(),
      results: { ok: 1, degraded: 0, failed: 0 },
    });
    const coingecko = hostOf(report, 'coingecko');
    expect(coingecko).toMatchObject({ calls: 1, outcomes: { ok: 1 }, success_rate: 1, last_success_at: nowS(), last_error: null });
    expect(coingecko.latency_ms!.p50).toBeGreaterThanOrEqual(0);
    expect(coingecko.latency_ms!.p95).toBeGreaterThanOrEqual(coingecko.latency_ms!.p50);
  });

  it('says degraded when a fallback answered, naming what the primary said (a 429)', async () => {
    t.sim.fault('coingecko', { kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    expect((await fetchFresh('crypto-price', 'bitcoin,ethereum')).ok).toBe(true);
    const report = await status();
    expect(typeOf(report, 'crypto-price')).toMatchObject({
      state: 'degraded',
      // crypto-price corroborates: the row's source is the first source used, Kraken (Binance quotes USDT, kept apart).
      reason: 'kraken answered as a fallback; coingecko rate limited (HTTP 429)',
      source: 'kraken',
      primary: 'coingecko',
    });
    expect(hostOf(report, 'coingecko').last_error).toEqual({
      reason: 'upstream_rate_limited',
      status: 429,
      message: 'rate limited (HTTP 429)',
      at: nowS(),
    });
  });

  it('says failing with the geo-block when no upstream answers (451 and 403)', async () => {
    t.sim.fault('binance-futures', { kind: 'status', status: 451 });
    t.sim.fault('bybit', { kind: 'status', status: 403 });
    t.sim.fault('hyperliquid', { kind: 'status', status: 451 });
    expect((await fetchFresh('funding-rates', 'BTC')).ok).toBe(false);
    const report = await status();
    expect(typeOf(report, 'funding-rates')).toMatchObject({
      state: 'failing',
      reason: 'binance-futures refuses requests from this region (HTTP 451); no fallback answered',
      source: null,
      primary: 'binance-futures',
      results: { failed: 1 },
    });
    expect(hostOf(report, 'bybit').last_error).toMatchObject({ reason: 'upstream_error', status: 403 });
    // crypto-price's corroboration asked Bybit's spot tickers earlier in this suite, and got answers.
    expect(hostOf(report, 'bybit').success_rate).toBeLessThan(1);
  });

  it('says which response changed shape', async () => {
    t.sim.serve({ host: 'frankfurter', path: '/v1/latest', body: { unexpected: true } });
    // forex corroborates three sources: the other two fail.
    t.sim.fault('open-er-api', { kind: 'status', status: 503 });
    t.sim.fault('yahoo', { kind: 'status', status: 503 });
    await fetchFresh('forex', 'EUR:USD');
    expect(typeOf(await status(), 'forex')).toMatchObject({
      state: 'failing',
      reason: 'frankfurter answered in an unexpected shape (its format may have changed); no fallback answered',
    });
  });

  it('marks a keyed primary skipped for lack of a key as degraded, and says which variable would fix it', async () => {
    expect((await fetchFresh('economic-indicator', 'DGS10')).ok).toBe(true);
    const report = await status();
    expect(typeOf(report, 'economic-indicator')).toMatchObject({
      state: 'degraded',
      reason: 'fred-graph answered as a fallback; fred needs a key',
      needs_key: 'UPSTREAM_FRED_KEY',
      signup_url: 'https://fredaccount.stlouisfed.org/apikeys',
      source: 'fred-graph',
    });
    expect(hostOf(report, 'fred')).toMatchObject({ outcomes: { key_missing: 2 }, success_rate: null, latency_ms: null });
  });

  it('shows an open circuit breaker after five consecutive failures', async () => {
    t.sim.fault('open-meteo', { kind: 'status', status: 503 });
    t.sim.fault('met-no', { kind: 'status', status: 503 });
    for (let i = 0; i < 6; i++) await fetchFresh('weather', `40.7${i},-74.01`);
    const report = await status();
    expect(hostOf(report, 'open-meteo')).toMatchObject({ circuit: 'open', outcomes: { error: 5, circuit_open: 1 } });
    expect(typeOf(report, 'weather')).toMatchObject({
      state: 'failing',
      reason: 'open-meteo circuit open after repeated failures; no fallback answered',
    });
  });

  it('exports per-upstream request counters by outcome and a latency histogram', async () => {
    const metric = async (name: string) => {
      const line = (await t.app.inject({ url: '/metrics' })).body.split('\n').find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const rateLimited = 'svc_upstream_requests_total{upstream="coingecko",outcome="rate_limited"}';
    const ok = 'svc_upstream_requests_total{upstream="binance",outcome="ok"}';
    const timed = 'svc_upstream_request_duration_seconds_count{upstream="coingecko"}';
    const slowest = 'svc_upstream_request_duration_seconds_bucket{le="+Inf",upstream="coingecko"}';
    const before = await Promise.all([rateLimited, ok, timed, slowest].map(metric));
    t.sim.fault('coingecko', { kind: 'status', status: 429 });
    await fetchFresh('crypto-price', 'bitcoin');
    const after = await Promise.all([rateLimited, ok, timed, slowest].map(metric));
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 1, 1]);
    const keyMissing = await metric('svc_upstream_requests_total{upstream="fred",outcome="key_missing"}');
    expect(keyMissing).toBeGreaterThan(0);
    expect(await metric('svc_upstream_request_duration_seconds_count{upstream="fred"}')).toBe(0);
  });
});

describe('GET /api/v1/catalog availability', () => {
  it('gives each type its availability from configuration and recent health', async () => {
    const { data_types } = (await t.app.inject({ url: '/api/v1/catalog' })).json<{
      data_types: { type: string; availability: unknown }[];
    }>();
    const byType = new Map(data_types.map((d) => [d.type, d.availability]));
    expect(byType.size).toBe(43);
    expect(byType.get('twitch-top')).toEqual({
      state: 'needs_key',
      reason: 'every upstream needs a key: set UPSTREAM_TWITCH_AUTH_KEY',
      needs_key: 'UPSTREAM_TWITCH_AUTH_KEY',
      signup_url: 'https://dev.twitch.tv/console/apps',
      terms: expect.objectContaining({ commercial: expect.any(String) }) as unknown,
    });
    expect(byType.get('economic-indicator')).toMatchObject({ state: 'degraded', needs_key: 'UPSTREAM_FRED_KEY' });
    expect(byType.get('weather')).toMatchObject({ state: 'failing', terms: { commercial: 'paid plan' } });
    expect(byType.get('crypto-price')).toMatchObject({ state: 'degraded', reason: expect.stringContaining('kraken') as string });
  });
});
