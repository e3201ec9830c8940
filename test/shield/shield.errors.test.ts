import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const post = (path: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/shield/${path}`, payload: payload as Record<string, unknown> });

describe('AgentShield: bad input is a 400 naming the field', () => {
  it.each([
    ['verify', {}, 'target'],
    ['verify', { target: { kind: 'wallet', value: '0x1' } }, 'kind'],
    ['verify', { target: { kind: 'token', value: '0x12' } }, 'target.value'],
    ['verify', { target: { kind: 'address', value: '0x3333333333333333333333333333333333333333', chain: 'solana' } }, 'chain'],
    ['verify', { target: { kind: 'url', value: 'ftp://example.com/' } }, 'target.value'],
    ['verify', { target: { kind: 'domain', value: 'not a domain' } }, 'target.value'],
    [
      'verify',
      { target: { kind: 'token', value: '0x3333333333333333333333333333333333333333' }, action: 'approve', amount: '-1' },
      'amount',
    ],
    ['exploit-likelihood', { chain: 'ethereum', address: 'uniswap' }, 'address'],
    ['tool-audit', {}, 'manifest'],
    ['tool-audit', { manifest: { tools: [] }, url: 'https://a.example/' }, 'url'],
    ['tool-audit', { manifest: { hello: 'world' } }, 'manifest'],
    ['tool-audit', { url: 'http://10.0.0.1/tools.json' }, 'url'],
    ['agent-scan', { url: 'file:///etc/passwd' }, 'url'],
  ])('%s %j → 400 on %s', async (path, payload, field) => {
    const res = await post(path, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(JSON.stringify(res.json())).toContain(field);
  });

  it('an unreachable manifest URL is a 422 with the reason, not a 500', async () => {
    t.sim.fault('web', { kind: 'status', status: 502 });
    const res = await post('tool-audit', { url: 'https://tools.example/mcp.json' });
    t.sim.clearFaults();
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'url_unreadable', details: { field: 'url', reason: 'upstream_error', status: 502 } });
  });

  it('a URL that is not JSON is a 422 naming the bad response', async () => {
    t.sim.serve({ host: 'web', path: '/page', body: 'plain words, not JSON' });
    const res = await post('tool-audit', { url: 'https://tools.example/page' });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.reason).toBe('upstream_bad_response');
  });
});
