import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Registry, registry } from '../../src/sources/registry.js';
import type { Fetcher } from '../../src/sources/define.js';
import { formatDoctor, runDoctor } from '../../src/status/doctor.js';
import type { StatusReport } from '../../src/status/service.js';
import type { CorroborationStatus } from '../../src/status/corroboration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Every source is waited for (tests sign with all of them): on a loaded machine a 1.5 s cap would list some `late`. */
const SLOW_MACHINE_DEADLINE_MS = 4000;
/**
 * /api/v1/status and the doctor say, per corroborated type, how many sources answer at this site and why the others do
 * not, from what svc already knows (configuration, the last fresh answer, each host's recorded calls): reading the
 * status never calls an upstream.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: { SVC_CORROBORATION_RULES: '{"crypto-price":{"outlier_bps":40}}' },
    deadlineCapMs: SLOW_MACHINE_DEADLINE_MS,
  });
});
afterAll(() => t.close());
afterEach(() => {
  t.sim.clearFaults();
  t.deps.upstream.resetBreakers();
});

const corroborationOf = async (type: string): Promise<CorroborationStatus> => {
  const res = await t.app.inject({ url: '/api/v1/status' });
  expect(res.statusCode).toBe(200);
  return res.json<StatusReport>().types.find((x) => x.type === type)!.corroboration!;
};
const fetchFresh = async (q: string) => {
  const res = await t.app.inject({ url: `/api/data/preview?type=crypto-price&q=${q}&max_age=0` });
  expect(res.json()).toMatchObject({ ok: true });
};
const stateOf = (c: CorroborationStatus) => Object.fromEntries(c.sources.map((s) => [s.source, s.state]));

describe('GET /api/v1/status: corroborated types', () => {
  it('before any fetch: the rule in effect, every source not_called, outlook unknown; uncorroborated types have no block', async () => {
    const c = await corroborationOf('crypto-price');
    expect(c).toEqual<CorroborationStatus>({
      rule: { quorum: 2, outlier_bps: 40, stale_after_s: 120, quote: 'USD' },
      answering: 0,
      answering_in_quote: 0,
      outlook: 'unknown',
      last_status: null,
      sources: ['coingecko', 'binance', 'kraken', 'coinbase-exchange', 'okx', 'bybit'].map((source) => ({ source, state: 'not_called' })),
    });
    const res = await t.app.inject({ url: '/api/v1/status' });
    expect(res.json<StatusReport>().types.find((x) => x.type === 'weather')).not.toHaveProperty('corroboration');
  });

  it('counts the sources that answer, in the quote, and names the region-blocked and erroring ones', async () => {
    t.sim.fault('okx', { kind: 'status', status: 500 });
    t.sim.fault('bybit', { kind: 'status', status: 451 });
    await fetchFresh('bitcoin');
    const hits = t.sim.hits();
    const c = await corroborationOf('crypto-price');
    expect(t.sim.hits()).toBe(hits); // reading the status asked no upstream
    expect(c).toMatchObject({ answering: 4, answering_in_quote: 3, outlook: 'corroborated', last_status: 'agreed' });
    expect(c.sources).toEqual([
      { source: 'coingecko', state: 'answering', quote: 'USD' },
      { source: 'binance', state: 'answering', quote: 'USDT' },
      { source: 'kraken', state: 'answering', quote: 'USD' },
      { source: 'coinbase-exchange', state: 'answering', quote: 'USD' },
      { source: 'okx', state: 'erroring', reason: 'answered HTTP 500' },
      { source: 'bybit', state: 'region_blocked', reason: 'refuses requests from this region (HTTP 451)' },
    ]);
  });

  it('one USD source left: below_quorum, the last answer single_source; a recovered source answers again', async () => {
    t.sim.fault('coingecko', { kind: 'status', status: 500 });
    t.sim.fault('coinbase-exchange', { kind: 'status', status: 500 });
    await fetchFresh('bitcoin');
    const c = await corroborationOf('crypto-price');
    expect(c).toMatchObject({ answering_in_quote: 1, outlook: 'below_quorum', last_status: 'single_source' });
    expect(stateOf(c)).toMatchObject({ coingecko: 'erroring', kraken: 'answering', 'coinbase-exchange': 'erroring' });
    t.sim.clearFaults();
    await fetchFresh('bitcoin');
    expect(await corroborationOf('crypto-price')).toMatchObject({ answering_in_quote: 3, outlook: 'corroborated', last_status: 'agreed' });
  });
});

describe('the doctor: corroborated types', () => {
  const crypto = registry.get('crypto-price')!;
  /** crypto-price with one more source behind a key that is not set. */
  const keyed: Fetcher<unknown> = async (_q, { http, deadline }) => [{ body: await http.text('/api/v1/quote', { deadline }) }];
  const withKeyedSource = new Registry([{ ...crypto, upstreams: { ...crypto.upstreams, finnhub: keyed } }]);

  it('lists how many sources answer, names a source whose key is not set no_key, and advises when too few answer', async () => {
    t.sim.fault('kraken', { kind: 'status', status: 500 });
    t.sim.fault('coinbase-exchange', { kind: 'status', status: 451 });
    const config = loadConfig({ ...t.sim.env(), UPSTREAM_FINNHUB_KEY: '' });
    const report = await runDoctor(config, { types: ['crypto-price'], deadlineMs: SLOW_MACHINE_DEADLINE_MS, registry: withKeyedSource });
    const row = report.rows[0]!;
    expect(row.corroboration).toMatchObject({ answering: 4, answering_in_quote: 1, outlook: 'below_quorum' });
    expect(stateOf(row.corroboration!)).toMatchObject({ kraken: 'erroring', 'coinbase-exchange': 'region_blocked', finnhub: 'no_key' });
    expect(row.advice).toContain(
      'only 1 source(s) answer in USD here, fewer than the quorum of 2: rows will be single_source or disputed ' +
        '(kraken erroring, coinbase-exchange region_blocked, finnhub no_key)',
    );
    expect(formatDoctor(report)).toContain(
      'corroborated prices (sources answering here):\n' +
        '  crypto-price: 4 of 7 sources answer (1 in USD, quorum 2): below quorum; kraken erroring, coinbase-exchange region_blocked, finnhub no_key\n',
    );
  });
});
