import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** Audit finding 2: numbers outside the double range, non-integers and out-of-bound integers are 400s naming the field. */
describe('hostile integer parameters', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it.each([
    ['/api/v1/entity/list?limit=1e309', 'limit'],
    ['/api/v1/entity/list?limit=Infinity', 'limit'],
    ['/api/v1/entity/list?limit=-Infinity', 'limit'],
    ['/api/v1/entity/list?limit=2.5', 'limit'],
    ['/api/v1/entity/list?offset=99999999999999999999', 'offset'],
    ['/api/v1/entity/resolve?q=btc&limit=1e309', 'limit'],
    ['/api/v1/gainers?limit=1e309', 'limit'],
    ['/api/v1/snapshot?ago=Infinity', 'ago'],
    ['/api/v1/backtest?type=crypto-price&q=BTC&from=1&to=9e12', 'to'],
    ['/api/v1/backtest?type=crypto-price&q=BTC&from=1e309&to=2', 'from'],
    ['/api/data/preview?type=crypto-price&q=bitcoin&max_age=1e309', 'max_age'],
    ['/api/v1/training-station/agents?offset=1e%2B308', 'offset'],
    ['/api/v1/training-station/leaderboard?kind=k&limit=Infinity', 'limit'],
  ])('%s → 400 naming %s', async (url, field) => {
    const res = await t.app.inject(url);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    expect(body.details.field).toBe(field);
    expect(typeof body.request_id).toBe('string');
  });

  // Found by the route fuzzer: Ajv coerced the string "1e309" in a body to Infinity, and session start 500ed.
  it('a body string that coerces to a number outside the double range is a 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/agent-session/start', payload: { label: 'x', ttl_minutes: '1e309' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', details: { field: 'ttl_minutes', in: 'body' } });
  });

  it('an in-bound value is still accepted', async () => {
    const res = await t.app.inject('/api/v1/entity/list?limit=2&offset=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ limit: 2, offset: 1, count: 2 });
  });
});
