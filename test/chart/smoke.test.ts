import { it, expect } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { smallChartPng } from './crafted-images.js';

it('smoke', async () => {
  const t = await startTestApp({ env: { SVC_DEMO: '1', UPSTREAM_LLM_KEY: '' } });
  const png = await smallChartPng();
  const r = await t.app.inject({ method: 'POST', url: '/api/v1/chart/analyze', payload: { image_b64: png.toString('base64'), asset: 'BTC', paper_trade: true } });
  console.log(r.statusCode, JSON.stringify(r.json(), null, 1).slice(0, 4000));
  const boundary = 'XyZ';
  const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="c.png"\r\nContent-Type: text/plain\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="asset"\r\n\r\nETH\r\n--${boundary}--\r\n`)]);
  const m = await t.app.inject({ method: 'POST', url: '/api/v1/chart/analyze', payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  console.log(m.statusCode, m.body.slice(0, 600));
  const doc = (await t.app.inject('/openapi.json')).json();
  console.log(JSON.stringify(doc.paths['/api/v1/chart/analyze'].post.requestBody).slice(0, 800));
  await t.close();
});
