import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { IMAGE_LIMITS } from '../../src/chart/image.js';
import { blackPng, pngHeaderOnText, smallChartPng } from './crafted-images.js';
import { analyzeForm, analyzeJson, form } from './helpers.js';

// No vision model is configured here: a request that got past the image checks would be a 503, so each 4xx below
// proves the check ran first.
describe('chart analyze: every image limit is a 4xx naming the limit', () => {
  let t: TestApp;
  let chart: Buffer;
  beforeAll(async () => {
    t = await startTestApp();
    chart = await smallChartPng();
  });
  afterAll(() => t.close());

  it('a 6 MB file is 413 image_too_large, as a form upload and as JSON', async () => {
    const big = Buffer.concat([chart, Buffer.alloc(6 * 1024 * 1024)]);
    const form = await analyzeForm(t.app, big);
    expect(form.statusCode).toBe(413);
    expect(form.json()).toMatchObject({ error: 'image_too_large', details: { limit: 'max_bytes', max: IMAGE_LIMITS.maxBytes } });
    const json = await analyzeJson(t.app, { image_b64: big.toString('base64') });
    expect(json.statusCode).toBe(413);
    expect(json.json()).toMatchObject({
      error: 'image_too_large',
      details: { limit: 'max_bytes', max: IMAGE_LIMITS.maxBytes, bytes: big.length },
    });
  });

  it('the type comes from the magic bytes, not the declared type', async () => {
    const text = await analyzeForm(t.app, Buffer.from('just some text, declared as image/png\n'.repeat(10)));
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({
      error: 'unsupported_image_type',
      details: { limit: 'image_type', detected: null, accepted: ['image/png', 'image/jpeg', 'image/webp'] },
    });
    const gif = await analyzeJson(t.app, { image_b64: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64') });
    expect(gif.statusCode).toBe(415);
    expect(gif.json().details).toMatchObject({ detected: 'image/gif' });
  });

  it('a PNG header on a text file passes the magic-byte check and fails to decode: 400 invalid_image', async () => {
    const r = await analyzeForm(t.app, pngHeaderOnText());
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'invalid_image', details: { limit: 'decodable' } });
  });

  it('a header declaring 5000 × 10 pixels is 422 image_dimensions_too_large', async () => {
    const r = await analyzeForm(t.app, blackPng(5000, 10));
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({
      error: 'image_dimensions_too_large',
      details: { limit: 'max_dimensions', max_width: 4096, max_height: 4096, width: 5000, height: 10 },
    });
  });

  it('a decompression bomb (2 KB of deflated zeros declaring 4096 × 4096) is 422 image_too_many_pixels, never decoded', async () => {
    const bomb = blackPng(4096, 4096);
    expect(bomb.length).toBeLessThan(4096);
    const r = await analyzeJson(t.app, { image_b64: bomb.toString('base64') });
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({
      error: 'image_too_many_pixels',
      details: { limit: 'max_pixels', max: IMAGE_LIMITS.maxPixels, pixels: 4096 * 4096 },
    });
  });

  it('bad forms and bodies are 400s naming the field', async () => {
    const cases: [Promise<{ statusCode: number; json(): any }>, string][] = [
      [analyzeJson(t.app, { image_b64: 'not base64 at all!' }), 'image_b64'],
      [analyzeJson(t.app, { image_b64: chart.toString('base64'), paper_trade: true }), 'asset'],
      [analyzeJson(t.app, { image_b64: chart.toString('base64'), paper_trade: true, asset: 'DOGE' }), 'asset'],
      [analyzeJson(t.app, { image_b64: chart.toString('base64'), timeframe: '<script>' }), 'timeframe'],
      [analyzeForm(t.app, chart, {}, 'picture'), 'picture'],
      [analyzeForm(t.app, chart, { paper_trade: 'true' }), 'asset'],
      [analyzeForm(t.app, chart, { paper_trade: 'yes', asset: 'BTC' }), 'paper_trade'],
    ];
    for (const [request, field] of cases) {
      const r = await request;
      expect(r.statusCode, JSON.stringify(r.json())).toBe(400);
      expect(r.json().details.field).toContain(field);
    }
  });

  it('a form with extra fields, two files or no boundary is a 4xx, never a 500', async () => {
    const extra = await analyzeForm(t.app, chart, { asset: 'BTC', timeframe: '1h', paper_trade: 'false', note: 'x' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().details).toMatchObject({ field: '(form)', rule: 'too_many_parts' });
    const twice = form(chart);
    const two = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chart/analyze',
      headers: twice.headers,
      payload: Buffer.concat([twice.payload.subarray(0, twice.payload.lastIndexOf('--svc')), form(chart).payload]),
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().details).toMatchObject({ rule: 'one_file' });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chart/analyze',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'bad_request', details: { rule: 'multipart' } });
  });

  it('a valid image with no vision model configured is 503 model_unavailable', async () => {
    const r = await analyzeForm(t.app, chart);
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ error: 'model_unavailable', details: { role: 'vision-panel' } });
  });
});
