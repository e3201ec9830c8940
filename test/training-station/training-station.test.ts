import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** agent_id → the agent_key its first write returned (test/security covers writes without it). */
const keys = new Map<string, string>();
async function post(url: string, payload: { agent_id?: string; [field: string]: unknown }, agentId = payload.agent_id) {
  const key = agentId && keys.get(agentId);
  const res = await t.app.inject({ method: 'POST', url, payload, headers: key ? { authorization: `Bearer ${key}` } : {} });
  if (agentId && res.statusCode === 200 && res.json().agent_key) keys.set(agentId, res.json().agent_key);
  return res;
}

async function history(agent: string, pairs: [number, 0 | 1][]) {
  for (const [p, o] of pairs) {
    const { claim_id } = (
      await post('/api/v1/calib/record_claim', {
        agent_id: agent,
        kind: 'rain',
        predicted_p: p,
        payload: {},
        outcome_resolver: { type: 'manual', config: {} },
        ttl_hours: 1,
      })
    ).json();
    expect((await post('/api/v1/calib/record_outcome', { claim_id, outcome: o }, agent)).statusCode).toBe(200);
  }
}

describe('training station', () => {
  it('registers agents, browses them with claim counts and describes itself as JSON-LD with live counts', async () => {
    const reg = await post('/api/v1/training-station/register', {
      agent_id: 'acme:forecaster',
      name: 'Acme Forecaster',
      homepage: 'https://acme.example',
    });
    expect(reg.json()).toMatchObject({
      agent_id: 'acme:forecaster',
      name: 'Acme Forecaster',
      homepage: 'https://acme.example',
      public_key: null,
      claims: 0,
      agent_key: expect.stringMatching(/^svc-ak_/),
    });
    await post('/api/v1/training-station/register', { agent_id: 'acme:sloppy', name: 'Sloppy' });
    await history(
      'acme:forecaster',
      Array.from({ length: 40 }, (_, i) => [0.7, i % 10 < 7 ? 1 : 0]),
    );
    await history(
      'acme:sloppy',
      Array.from({ length: 40 }, (_, i) => [0.9, i % 2 ? 1 : 0]),
    );
    await history('acme:newbie', [[0.5, 1]]);

    const browse = (await t.app.inject('/api/v1/training-station/agents?limit=1&offset=1')).json();
    expect(browse).toMatchObject({ count: 1, total: 2, limit: 1, offset: 1, agents: [{ agent_id: 'acme:sloppy', claims: 40 }] });

    const schema = await t.app.inject('/api/v1/training-station/schema');
    expect(schema.headers['content-type']).toContain('application/ld+json');
    const doc = schema.json();
    expect(doc).toMatchObject({ '@context': 'https://schema.org', '@type': 'WebAPI', totalAgents: 2, claimCount: 81 });
    expect(doc.potentialAction.map((a: { name: string }) => a.name)).toEqual([
      'calibrate_p',
      'record_claim',
      'record_outcome',
      'register',
      'browse',
      'leaderboard',
    ]);
    expect(doc.potentialAction[3].target).toMatchObject({
      urlTemplate: 'http://svc.test/api/v1/training-station/register',
      httpMethod: 'POST',
    });
  });

  it('ranks by ECE then Brier, only with enough resolved claims', async () => {
    const board = (await t.app.inject('/api/v1/training-station/leaderboard?kind=rain')).json();
    expect(board.entries.map((e: { agent_id: string }) => e.agent_id)).toEqual(['acme:forecaster', 'acme:sloppy']);
    expect(board.entries[0]).toMatchObject({ rank: 1, resolved: 40, ece: expect.closeTo(0, 10) });
    expect(board.entries[1].ece).toBeCloseTo(0.4, 10);
    const all = (await t.app.inject('/api/v1/training-station/leaderboard?min_resolved=1')).json();
    expect(all.entries.map((e: { agent_id: string }) => e.agent_id)).toContain('acme:newbie');
    expect(board._receipt).toBeDefined();
  });

  it('validates registration', async () => {
    expect((await post('/api/v1/training-station/register', { agent_id: 'bad', name: 'x' })).json().details.field).toBe('agent_id');
    expect(
      (await post('/api/v1/training-station/register', { agent_id: 'a:b', name: 'x', homepage: 'ftp://x' })).json().details.field,
    ).toBe('homepage');
  });
});
