import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fetchFailure } from '../../src/shield/fetch-json.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { ApiError } from '../../src/core/errors.js';

/**
 * Audit finding 6: shield answered 503 for what the caller sent (an address no source knows, a URL
 * that answers 404 or does not resolve), telling clients and load balancers the service was down.
 * Those are 422s naming the reason; 503 stays for svc's own inability to reach its sources.
 */
let t: TestApp;
beforeAll(async () => (t = await startTestApp()));
afterAll(() => t.close());
beforeEach(() => {
  t.sim.clearOverrides();
  t.sim.clearFaults();
});

const post = (path: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/v1/shield/${path}`, payload });

/** GoPlus and Etherscan both know nothing of `address`, in their documented shapes. */
function serveUnknown(address: string): void {
  t.sim.serve({
    host: 'gopluslabs',
    path: '/api/v1/token_security/1',
    query: { contract_addresses: address },
    body: { code: 1, message: 'OK', result: {} },
  });
  t.sim.serve({
    host: 'etherscan',
    path: '/v2/api',
    query: { module: 'contract', action: 'getsourcecode', address },
    body: { status: '1', message: 'OK', result: [] },
  });
}

describe('exploit-likelihood', () => {
  it('an address no source knows is a 422 address_unknown naming the field', async () => {
    const address = '0x7777777777777777777777777777777777777777';
    serveUnknown(address);
    const res = await post('exploit-likelihood', { chain: 'ethereum', address });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error: 'address_unknown', details: { field: 'address', reason: 'no_data' } });
  });

  it('sources that cannot be reached are still svc’s 503', async () => {
    t.sim.fault('gopluslabs', { kind: 'status', status: 500 });
    t.sim.fault('etherscan', { kind: 'status', status: 500 });
    const res = await post('exploit-likelihood', { chain: 'ethereum', address: '0x8888888888888888888888888888888888888888' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe('upstream_unavailable');
  });
});

describe('tool-audit of a URL', () => {
  it('that answers 404 is a 422 url_unreadable with the status', async () => {
    const res = await post('tool-audit', { url: 'https://tools.example/missing.json' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error: 'url_unreadable', details: { field: 'url', reason: 'upstream_error', status: 404 } });
  });

  it('that does not resolve is a 422 too', () => {
    const dns = new UpstreamError('upstream_unavailable', 'getaddrinfo ENOTFOUND no-such-host.invalid');
    let thrown: unknown;
    try {
      fetchFailure(dns, 'url');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 422, code: 'url_unreadable', details: { field: 'url', reason: 'upstream_unavailable' } });
  });
});
