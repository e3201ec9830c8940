import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ModelFakes, FakeReply } from '../fakes/models.js';
import { RUBRIC } from '../../src/chart/service.js';
import { smallChartPng } from './crafted-images.js';
import { analyzeForm, analyzeJson, sentImage, startVisionFakes, verdict } from './helpers.js';

const SAMPLE = readFileSync(new URL('../../examples/sample-chart.png', import.meta.url));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const byModel = (replies: Record<string, FakeReply>) => (call: { model: string }) => replies[call.model] ?? { status: 400 };

describe('chart analyze: four vision models side by side', () => {
  let t: TestApp;
  let fakes: ModelFakes;
  let chart: Buffer;
  beforeAll(async () => {
    const started = await startVisionFakes();
    fakes = started.fakes;
    t = await startTestApp({ env: started.env });
    chart = await smallChartPng();
  });
  afterAll(async () => {
    await t.close();
    await fakes.close();
  });
  beforeEach(() => fakes.reset());

  it('sends the same cleaned image and rubric to all four, answers the verdicts, the weighted consensus, the image hash and a receipt', async () => {
    fakes.respondWith(
      byModel({
        'vision-openai': { json: verdict('buy', 0.7) },
        'vision-anthropic': { json: verdict('buy', 0.6) },
        'vision-google': { json: verdict('sell', 0.9) },
        'vision-mistral': { json: verdict('hold', 0.8) },
      }),
    );
    const r = await analyzeForm(t.app, chart, { asset: 'BTC', timeframe: '1h' });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.verdicts.map((v: any) => [v.model, v.vendor, v.ok, v.verdict.signal])).toEqual([
      ['vision-openai', 'openai', true, 'buy'],
      ['vision-anthropic', 'anthropic', true, 'buy'],
      ['vision-google', 'google', true, 'sell'],
      ['vision-mistral', 'mistral', true, 'hold'],
    ]);
    expect(body.verdicts[0].verdict).toEqual(verdict('buy', 0.7));
    // No history: each weight is the stated confidence; buy 0.7 + 0.6 beats sell 0.9 and hold 0.8.
    expect(body.consensus).toMatchObject({ signal: 'buy', votes: { buy: 2, sell: 1, hold: 1 }, tie: false, models_counted: 4 });
    expect(body.consensus.weights.buy).toBeCloseTo(1.3, 12);
    expect(body.consensus.share).toBeCloseTo(1.3 / 3, 12);
    expect(body).toMatchObject({
      image_sha256: sha256(chart),
      image: { format: 'png', width: 320, height: 200, bytes: chart.length },
      asset: 'BTC',
      timeframe: '1h',
      demo: false,
    });
    expect(body.paper_trade).toBeUndefined();
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/v1/receipt/verify',
      payload: { receipt: body._receipt, response: body },
    });
    expect(verified.json()).toMatchObject({ valid: true });

    expect(fakes.calls).toHaveLength(4);
    const images = fakes.calls.map(sentImage);
    for (const [i, call] of fakes.calls.entries()) {
      expect(call.system).toContain(RUBRIC);
      expect(call.system).toBe(fakes.calls[0]!.system);
      expect(call.messages.at(-1)!.text).toMatch(/Read this chart\.$/);
      expect(call.messages.reduce((n, m) => n + m.images, 0)).toBe(1);
      expect(call.messages.some((m) => m.text.includes('"asset":"BTC"'))).toBe(true);
      expect(images[i]!.equals(images[0]!)).toBe(true);
    }
    // Re-encoded before any model saw it: a PNG without the upload's text chunk.
    expect(images[0]!.subarray(1, 4).toString()).toBe('PNG');
    expect(chart.includes('secret-author-name')).toBe(true);
    expect(images[0]!.includes('secret-author-name')).toBe(false);
  });

  it('an answer that fails the schema (after the repair) or a vendor error is that model’s failure; the rest decide', async () => {
    fakes.respondWith(
      byModel({
        'vision-openai': { json: verdict('sell', 0.55) },
        'vision-anthropic': { json: verdict('sell', 0.65) },
        'vision-google': { json: { ...verdict('buy', 0.9), signal: 'strong buy' } },
        'vision-mistral': { status: 400 },
      }),
    );
    const r = await analyzeJson(t.app, { image_b64: `data:image/png;base64,${chart.toString('base64')}` });
    expect(r.statusCode, r.body).toBe(200);
    const { verdicts, consensus } = r.json();
    expect(verdicts[2]).toMatchObject({ model: 'vision-google', ok: false, reason: 'invalid_output' });
    expect(verdicts[2].verdict).toBeUndefined();
    expect(verdicts[3]).toMatchObject({ model: 'vision-mistral', ok: false, reason: 'vendor_error' });
    expect(consensus).toMatchObject({ signal: 'sell', votes: { buy: 0, sell: 2, hold: 0 }, models_counted: 2, share: 1 });
  });

  it('takes JPEG and WebP too, by content, and hands the models PNG', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      fakes.reset();
      fakes.respondWith(() => ({ json: verdict('hold', 0.5) }));
      const file = await sharp(chart).toFormat(format).toBuffer();
      const r = await analyzeForm(t.app, file);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({
        image: { format, width: 320, height: 200 },
        image_sha256: sha256(file),
        consensus: { signal: 'hold' },
      });
      expect((await sharp(sentImage(fakes.calls[0]!)).metadata()).format).toBe('png');
    }
  });

  it('the OpenAPI documents both body forms', async () => {
    const op = (await t.app.inject('/openapi.json')).json().paths['/api/v1/chart/analyze'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(op.requestBody.content['multipart/form-data'].schema.properties.image).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '413', '415', '422', '503']));
  });
});

describe('chart analyze in the demo', () => {
  it('answers with the four vendor fakes, labelled as such, on the shipped sample chart', async () => {
    // No legacy LLM key either, so the demo's own fakes serve the panel.
    const t = await startTestApp({ env: { SVC_DEMO: '1', UPSTREAM_LLM_KEY: '' } });
    try {
      const r = await analyzeForm(t.app, SAMPLE, { asset: 'SAMPLE', timeframe: '1h' });
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json();
      expect(body.demo).toBe(true);
      expect(body.verdicts.map((v: any) => v.model)).toEqual(['demo-openai', 'demo-anthropic', 'demo-google', 'demo-mistral']);
      for (const v of body.verdicts) expect(v.verdict.rationale).toMatch(/^Demo model \(.*fake\).*received 1 image/);
      expect(body.consensus).toMatchObject({ signal: 'buy', votes: { buy: 3, hold: 1 } });
      expect(body.image).toEqual({ format: 'png', width: 960, height: 540, bytes: SAMPLE.length });
    } finally {
      await t.close();
    }
  });
});
