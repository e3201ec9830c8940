import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The value of one exposition line, by its metric name and labels exactly as written. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

it('counts requests and latency per method, route and status, once each, with 404s under one label', async () => {
  const preview = '/api/data/preview?type=weather&q=40.71,-74.01';
  for (let i = 0; i < 3; i++) expect((await t.app.inject(preview)).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  for (const url of ['/no/such/path', '/wp-login.php']) expect((await t.app.inject(url)).statusCode).toBe(404);

  const text = (await t.app.inject('/metrics')).body;
  const labels = 'method="GET",route="/api/data/preview"';
  expect(valueOf(text, `svc_http_requests_total{${labels},status="200"}`)).toBe(3);
  expect(valueOf(text, 'svc_http_requests_total{method="HEAD",route="/healthz",status="200"}')).toBe(1);
  expect(valueOf(text, 'svc_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(2);
  expect(text).toContain('# TYPE svc_http_request_duration_seconds histogram');

  const buckets = ['0.001', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map((le) =>
    valueOf(text, `svc_http_request_duration_seconds_bucket{${labels},le="${le}"}`)!,
  );
  expect(buckets.every((n, i) => i === 0 || n >= buckets[i - 1]!)).toBe(true);
  expect(buckets.at(-1)).toBe(3);
  expect(valueOf(text, `svc_http_request_duration_seconds_count{${labels}}`)).toBe(3);
  expect(valueOf(text, `svc_http_request_duration_seconds_sum{${labels}}`)).toBeGreaterThan(0);
  // prom-client's own metrics are still there.
  expect(text).toMatch(/svc_upstream_requests_total\{upstream="open-meteo",outcome="ok"\} 1/);
});
