import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = 'https://agent.example';

it('reflects any Origin and exposes the payment and limit headers; no Origin, no CORS headers', async () => {
  const cross = await t.app.inject({ url: '/api/v1/catalog', headers: { origin } });
  expect(cross.statusCode).toBe(200);
  expect(cross.headers['access-control-allow-origin']).toBe(origin);
  expect(cross.headers['access-control-allow-credentials']).toBeUndefined();
  expect(String(cross.headers['access-control-expose-headers']).split(', ')).toEqual(
    expect.arrayContaining(['x-payment-response', 'payment-required', 'ratelimit', 'x-request-id']),
  );
  expect(cross.headers.vary).toBe('Origin');

  const plain = await t.app.inject({ url: '/api/v1/catalog' });
  expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  expect(plain.headers['access-control-expose-headers']).toBeUndefined();
  expect(plain.headers.vary).toBe('Origin');
});

it('answers a preflight 204 before routing, and leaves other OPTIONS requests to the router', async () => {
  const preflight = await t.app.inject({
    method: 'OPTIONS',
    url: '/api/data/bundle',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-payment,content-type' },
  });
  expect(preflight.statusCode).toBe(204);
  expect(preflight.body).toBe('');
  expect(preflight.headers['access-control-allow-origin']).toBe(origin);
  expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
  expect(String(preflight.headers['access-control-allow-headers']).split(', ')).toEqual(
    expect.arrayContaining(['x-payment', 'payment-signature', 'content-type', 'authorization']),
  );

  const notPreflight = await t.app.inject({ method: 'OPTIONS', url: '/api/data/bundle', headers: { origin } });
  expect(notPreflight.statusCode).toBeGreaterThanOrEqual(400);
  expect(notPreflight.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
});
