import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { Simulator } from '../../src/demo/simulator.js';
import type { ModelFakes } from '../fakes/models.js';
import { STRATEGIES } from '../../src/arena/paper-trader.js';
import { attestationId } from '../../src/arena/attestations.js';
import { PRIOR_STRENGTH } from '../../src/chart/consensus.js';
import { smallChartPng } from './crafted-images.js';
import { analyzeJson, startChartApp, verdict } from './helpers.js';

const HOUR_MS = 3_600_000;
const CONFIDENCE: Record<string, number> = { 'vision-openai': 0.7, 'vision-anthropic': 0.62, 'vision-google': 0.58, 'vision-mistral': 0.8 };

describe('chart analyze → arena paper trade → model claims resolved by the trade', () => {
  let t: TestApp;
  let fakes: ModelFakes;
  let chart: Buffer;
  let sim: Simulator;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, fakes, sim, close } = await startChartApp());
    chart = await smallChartPng();
  });
  afterAll(() => close());

  const claim = (id: string) => t.deps.store.db.selectFrom('calib_claims').selectAll().where('claim_id', '=', id).executeTakeFirstOrThrow();

  it('a sell or hold consensus opens nothing (the arena is long only)', async () => {
    fakes.respondWith(() => ({ json: verdict('sell', 0.8) }));
    const r = await analyzeJson(t.app, { image_b64: chart.toString('base64'), asset: 'BTC', paper_trade: true });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().paper_trade).toMatchObject({ opened: false, reason: expect.stringContaining('consensus is sell') });
    expect(await t.deps.store.db.selectFrom('arena_trades').selectAll().where('strategy', '=', 'chart-consensus').execute()).toHaveLength(
      0,
    );
  });

  it('a buy consensus opens a live chart-consensus trade at the live price, attested, with one claim per valid verdict; the exit resolves them all', async () => {
    fakes.respondWith((call) => ({ json: verdict('buy', CONFIDENCE[call.model]!) }));
    const r = await analyzeJson(t.app, { image_b64: chart.toString('base64'), asset: 'ETH', timeframe: '4h', paper_trade: true });
    expect(r.statusCode, r.body).toBe(200);
    const trade = r.json().paper_trade;
    const meanP = Object.values(CONFIDENCE).reduce((a, b) => a + b, 0) / 4;
    expect(trade).toMatchObject({ opened: true, strategy: 'chart-consensus', asset: 'ETH', mode: 'live', entry_ts: t.clock.now() });
    expect(trade.predicted_p).toBeCloseTo(meanP, 12);
    expect(trade.entry_price).toBeGreaterThan(0);
    expect(trade.model_claims.map((c: any) => [c.agent_id, c.predicted_p])).toEqual(
      Object.entries(CONFIDENCE).map(([id, p]) => [`chart:${id}`, p]),
    );

    const entry = (await t.app.inject(trade.attestation_url.replace('http://svc.test', ''))).json();
    expect(entry).toMatchObject({
      event: 'enter',
      mode: 'live',
      strategy: 'chart-consensus',
      asset: 'ETH',
      agent_id: 'arena:chart-consensus:ETH',
      entry_price: trade.entry_price,
      claim_id: trade.claim_id,
    });
    expect(entry.model_claims).toEqual(trade.model_claims);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/receipt/verify', payload: { receipt: entry._receipt, response: entry } })).json(),
    ).toMatchObject({ valid: true });
    for (const c of trade.model_claims)
      expect(await claim(c.claim_id)).toMatchObject({ agent_id: c.agent_id, kind: 'chart-trade', status: 'unresolved' });

    // 72 hourly candles later max_hold has closed it at the latest (stop and take-profit may come first).
    t.clock.advance(73.5 * HOUR_MS);
    await t.app.scheduler.tick();
    const row = await t.deps.store.db
      .selectFrom('arena_trades')
      .selectAll()
      .where('strategy', '=', 'chart-consensus')
      .executeTakeFirstOrThrow();
    expect(['stop_loss', 'take_profit', 'max_hold']).toContain(row.exit_reason);
    const outcome = row.pnl_pct! > 0 ? 1 : 0;
    if (row.exit_reason === 'take_profit') expect(row.exit_price).toBeGreaterThanOrEqual(trade.entry_price * 1.04);
    if (row.exit_reason === 'stop_loss') expect(row.exit_price).toBeLessThanOrEqual(trade.entry_price * 0.96);
    for (const id of [trade.claim_id, ...trade.model_claims.map((c: any) => c.claim_id)]) {
      expect(await claim(id)).toMatchObject({ status: 'resolved', outcome, outcome_source: 'verified' });
    }
    const exit = (
      await t.app.inject(`/api/v1/arena/attestation/${attestationId('chart-consensus', 'ETH', trade.entry_ts, 'exit')}`)
    ).json();
    expect(exit).toMatchObject({
      event: 'exit',
      mode: 'live',
      exit_reason: row.exit_reason,
      exit_price: row.exit_price,
      outcome,
      claim_id: trade.claim_id,
    });
    const curve = (
      await t.app.inject({ url: '/api/v1/calib/curve', query: { agent_id: 'chart:vision-openai', kind: 'chart-trade' } })
    ).json();
    expect(curve).toMatchObject({ resolved_claims: 1, verified_outcomes: 1 });

    // The next analysis weighs vision-openai's 0.7 with its one resolved claim in that bin: (1·outcome + 5·0.7)/6.
    const again = (await analyzeJson(t.app, { image_b64: chart.toString('base64') })).json();
    expect(again.verdicts[0]).toMatchObject({ model: 'vision-openai', calibration_samples: 1 });
    expect(again.verdicts[0].calibrated_confidence).toBeCloseTo((outcome + PRIOR_STRENGTH * 0.7) / (1 + PRIOR_STRENGTH), 12);
  }, 30_000);

  it('no live price, no trade: the analysis still answers, with the reason', async () => {
    fakes.respondWith(() => ({ json: verdict('buy', 0.9) }));
    sim.fault('binance', { kind: 'malformed' });
    try {
      const r = await analyzeJson(t.app, { image_b64: chart.toString('base64'), asset: 'SOL', paper_trade: true });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({
        consensus: { signal: 'buy' },
        paper_trade: { opened: false, reason: expect.stringContaining('live price was unavailable') },
      });
      const trades = await t.deps.store.db
        .selectFrom('arena_trades')
        .selectAll()
        .where('strategy', '=', 'chart-consensus')
        .where('asset', '=', 'SOL')
        .execute();
      expect(trades).toHaveLength(0);
    } finally {
      sim.clearFaults();
    }
  });

  it('leaves the candle-driven strategies alone: chart-consensus is not one of them', () => {
    expect(STRATEGIES).toHaveLength(5);
    expect(STRATEGIES).not.toContain('chart-consensus');
  });
});
