import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createClient, requestHash, verifyReceipt, type ResponseMeta } from '../../packages/client/src/index.js';

/** `verifyReceipt` binds a receipt to the request it answered, hashed exactly as the service hashes it. */
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const receiptOf = (body: object) => (body as { _receipt: { request_hash: string } })._receipt;

describe('receipt request_hash', () => {
  it('matches the request the SDK sent: GET with string and number query values, encoded path parameters, POST bodies and POST queries', async () => {
    const client = createClient({ baseUrl: base });
    const answers: object[] = [
      await client.query({ type: 'crypto-price', q: 'bitcoin' }),
      await client.entity.resolve({ q: 'ether', limit: 2 }),
      (await client.request('get', '/api/v1/entity/{id}', { params: { id: 'svc-ent:cr.ethereum' } })).data,
      await client.calib.calibrateP({ agent_id: 'test:receipt', kind: 'k', predicted_p: 0.3 }),
      await client.bundle({ queries: [{ type: 'crypto-price', q: 'solana' }] }, { free: true }),
      (
        await client.request('post', '/api/v1/constitutional/classify', {
          body: { text: 'what is the weather in Paris?', direction: 'input', context: { source: 'user' } },
        })
      ).data,
    ];
    for (const body of answers) {
      const request = client.metaOf(body)!.request!;
      expect(receiptOf(body).request_hash, `${request.method} ${request.path}`).toBe(await requestHash(request));
      expect(await client.verifyReceipt(body)).toMatchObject({ valid: true, checked: 'signature+response+request' });
    }
  });

  it('a genuine receipt of another request fails (regression: only the response hash was checked)', async () => {
    const client = createClient({ baseUrl: base });
    const bitcoin = await client.query({ type: 'crypto-price', q: 'bitcoin' });
    const ethereum = await client.query({ type: 'crypto-price', q: 'ethereum' });
    const asked = (client.metaOf(bitcoin) as ResponseMeta).request!;
    const jwk = await client.receiptKey();

    // The ethereum answer is untouched and validly signed, but it does not answer the bitcoin request.
    expect(await verifyReceipt(ethereum, jwk)).toMatchObject({ valid: true, checked: 'signature+response' });
    expect(await verifyReceipt(ethereum, jwk, { request: asked })).toEqual({ valid: false, reason: 'request_mismatch' });
    expect(await client.verifyReceipt(ethereum, { request: asked })).toEqual({ valid: false, reason: 'request_mismatch' });
    expect(await verifyReceipt(receiptOf(ethereum), jwk, { request: asked })).toEqual({ valid: false, reason: 'request_mismatch' });
    expect(await verifyReceipt(bitcoin, jwk, { request: { ...asked, query: { ...asked.query, max_age: '0' } } })).toEqual({
      valid: false,
      reason: 'request_mismatch',
    });
    expect(await verifyReceipt(bitcoin, jwk, { request: asked })).toMatchObject({ valid: true });
  });
});
