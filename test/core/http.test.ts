import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const shape = { error: expect.any(String), message: expect.any(String), request_id: expect.any(String) };

describe('errors over HTTP', () => {
  it('unknown routes get a JSON 404', async () => {
    const res = await t.app.inject('/nope?x=1');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ ...shape, error: 'not_found', message: 'no route GET /nope' });
  });

  it('a malformed JSON body is a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/receipt/verify',
      headers: { 'content-type': 'application/json' },
      payload: '{"receipt":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ...shape, error: 'invalid_json' });
  });

  it('validation errors name the field and the rule', async () => {
    const missing = await t.app.inject('/api/data/preview?q=bitcoin');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'validation_failed', details: { field: 'type', rule: 'required', in: 'querystring' } });

    const unknownType = await t.app.inject('/api/data/preview?type=horoscope&q=leo');
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().details).toMatchObject({ field: 'type', rule: 'enum' });
    expect(unknownType.json().details.allowedValues).toContain('crypto-price');
    expect(unknownType.json().details.allowedValues).toHaveLength(43);

    const free = await t.app.inject('/api/data/preview?type=weather&q=1,2&free=yes');
    expect(free.json()).toMatchObject({ error: 'validation_failed', details: { field: 'free', rule: 'enum' } });

    const maxAge = await t.app.inject('/api/data/preview?type=weather&q=1,2&max_age=-1');
    expect(maxAge.json()).toMatchObject({ error: 'validation_failed', details: { field: 'max_age', rule: 'minimum' } });
  });

  it('a bad q states the expected shape and an example; an unknown FRED code lists the allowed codes', async () => {
    const res = await t.app.inject('/api/data/preview?type=economic-indicator&q=SP500');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ error: 'invalid_q', details: { field: 'q', example: 'DGS1MO' } });
    expect(body.details.allowed).toHaveLength(26);
    expect(body.details.allowed).toContain('T10Y2Y');
  });

  it('an internal failure is a 500 without internals, and the health check says the store is gone', async () => {
    const broken = await startTestApp();
    await broken.deps.store.db.destroy();
    const res = await broken.app.inject('/api/data/preview?type=crypto-price&q=bitcoin&max_age=0');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: 'internal_error',
      message: 'an internal error occurred; it has been logged',
      request_id: expect.any(String),
    });
    expect(res.body).not.toMatch(/at .*\.ts:\d+|driver has already been destroyed/);
    const health = await broken.app.inject('/healthz');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ ok: false, store: 'unreachable', engine: 'sqlite' });
    await broken.close();
  });

  it('healthz and metrics', async () => {
    expect((await t.app.inject('/healthz')).json()).toMatchObject({
      ok: true,
      store: 'reachable',
      engine: 'sqlite',
      version: expect.any(String),
    });
    await t.app.inject('/api/data/preview?type=weather&q=40.71,-74.01&max_age=0');
    const metrics = (await t.app.inject('/metrics')).body;
    expect(metrics).toMatch(/svc_http_requests_total\{method="GET",route="\/api\/data\/preview",status="200"\} \d+/);
    expect(metrics).toMatch(/svc_upstream_requests_total\{upstream="open-meteo",outcome="ok"\} \d+/);
    expect(metrics).toContain('svc_http_request_duration_seconds_bucket');
  });
});
