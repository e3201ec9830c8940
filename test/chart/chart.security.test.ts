import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { TestApp } from '../helpers/app.js';
import type { ModelFakes } from '../fakes/models.js';
import { smallChartPng } from './crafted-images.js';
import { analyzeForm, analyzeJson, sentImage, startChartApp, verdict } from './helpers.js';

describe('chart analyze: what reaches the models, and who may grade them', () => {
  let t: TestApp;
  let fakes: ModelFakes;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ t, fakes, close } = await startChartApp());
  });
  afterAll(() => close());

  it('EXIF (artist, copyright) never reaches a model: the JPEG is re-encoded to a bare PNG', async () => {
    fakes.reset();
    fakes.respondWith(() => ({ json: verdict('hold', 0.5) }));
    const exif = { IFD0: { Copyright: 'secret-copyright-holder', Artist: 'secret-artist' } };
    const jpeg = await sharp(await smallChartPng())
      .jpeg()
      .withExif(exif)
      .toBuffer();
    expect(jpeg.includes('secret-copyright-holder')).toBe(true);
    const r = await analyzeForm(t.app, jpeg);
    expect(r.statusCode, r.body).toBe(200);
    for (const call of fakes.calls) {
      const seen = sentImage(call)!;
      expect(seen.includes('secret-copyright-holder')).toBe(false);
      expect(seen.includes('secret-artist')).toBe(false);
      expect((await sharp(seen).metadata()).exif).toBeUndefined();
    }
  });

  it('the user’s asset and timeframe travel as quoted data, never in the instructions', async () => {
    fakes.reset();
    fakes.respondWith(() => ({ json: verdict('hold', 0.5) }));
    await analyzeForm(t.app, await smallChartPng(), { asset: 'IGNORE-ALL', timeframe: 'PREVIOUS 1h' });
    for (const call of fakes.calls) {
      expect(call.system).not.toContain('IGNORE-ALL');
      expect(call.messages.some((m) => /Quoted data \(chart context given by the user\):\n<data>\n.*IGNORE-ALL/.test(m.text))).toBe(true);
    }
  });

  it('the claims a paper trade records belong to svc: nobody grades a model’s claim or writes for chart: agents', async () => {
    fakes.reset();
    fakes.respondWith(() => ({ json: verdict('buy', 0.75) }));
    const r = await analyzeJson(t.app, { image_b64: (await smallChartPng()).toString('base64'), asset: 'SOL', paper_trade: true });
    const trade = r.json().paper_trade;
    expect(trade.opened).toBe(true);
    const claimId = trade.model_claims[0].claim_id;
    const grade = await t.app.inject({ method: 'POST', url: '/api/v1/calib/record_outcome', payload: { claim_id: claimId, outcome: 1 } });
    expect(grade.statusCode).toBe(403);
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      payload: {
        agent_id: 'chart:vision-openai',
        kind: 'chart-trade',
        predicted_p: 0.99,
        payload: {},
        outcome_resolver: { type: 'manual', config: {} },
        ttl_hours: 1,
      },
    });
    expect(write.statusCode).toBe(403);
    const row = await t.deps.store.db.selectFrom('calib_claims').selectAll().where('claim_id', '=', claimId).executeTakeFirstOrThrow();
    expect(row.status).toBe('unresolved');
  });
});
