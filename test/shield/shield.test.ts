import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CalibrationService } from '../../src/calib/service.js';
import { CalibrationRepo } from '../../src/store/repos/calibration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CLEAN, HONEYPOT, USDT, serveClean, serveGoplus, serveHoneypot } from './targets.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());
beforeEach(() => {
  t.sim.clearOverrides();
  t.sim.clearFaults();
});

const verify = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/v1/shield/verify', payload: body });
/** Addresses no other test asked about, so nothing is cached for them. */
const UNSEEN = ['0x5555555555555555555555555555555555555555', '0x6666666666666666666666666666666666666666'] as const;
const ids = (findings: { id: string }[]) => findings.map((f) => f.id).sort();

describe('POST /api/v1/shield/verify', () => {
  it('blocks a honeypot token that impersonates a known token', async () => {
    serveHoneypot(t.sim);
    const res = await verify({ target: { kind: 'token', value: HONEYPOT }, action: 'swap' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ verdict: 'block', risk: 100, target: { kind: 'token', chain: 'ethereum', value: HONEYPOT } });
    expect(ids(body.findings)).toEqual(['cannot_sell_all', 'high_tax', 'honeypot', 'impersonates_known_token', 'unverified_source']);
    expect(body.findings.find((f: { id: string }) => f.id === 'honeypot')).toMatchObject({
      severity: 'critical',
      source: 'token-risk:gopluslabs',
      evidence: { is_honeypot: true },
    });
    expect(body.findings.find((f: { id: string }) => f.id === 'impersonates_known_token').evidence).toMatchObject({
      entity_id: 'svc-ent:stb.usdt',
      entity_contract: USDT,
    });
    expect(body.checked).toEqual(expect.arrayContaining(['token-risk', 'contract-risk', 'svc:token-impersonation', 'svc:address-label']));
    expect(body._receipt.sources).toEqual(expect.arrayContaining(['token-risk:gopluslabs', 'contract-risk:etherscan']));
  });

  it('warns on a known token with owner privileges and labels it from the entity graph', async () => {
    const body = (await verify({ target: { kind: 'token', value: USDT } })).json();
    expect(body.verdict).toBe('warn');
    expect(ids(body.findings)).toEqual(expect.arrayContaining(['blacklist', 'known_entity', 'mintable', 'pausable']));
    expect(ids(body.findings)).not.toContain('impersonates_known_token');
    expect(body.risk).toBeGreaterThanOrEqual(45);
  });

  it('allows a clean token with every check answered, and flags an unlimited approval of it', async () => {
    serveClean(t.sim);
    const clean = (await verify({ target: { kind: 'token', value: CLEAN }, action: 'swap' })).json();
    expect(clean).toMatchObject({ verdict: 'allow', risk: 0, findings: [], unknown: [] });
    const approve = (
      await verify({ target: { kind: 'token', value: CLEAN }, action: 'approve', amount: (2n ** 256n - 1n).toString() })
    ).json();
    expect(approve).toMatchObject({ verdict: 'warn', risk: 30, findings: [{ id: 'unlimited_approval', severity: 'high' }] });
    const bounded = (await verify({ target: { kind: 'token', value: CLEAN }, action: 'approve', amount: '1000000' })).json();
    expect(bounded).toMatchObject({ verdict: 'allow', findings: [] });
    const unstated = (await verify({ target: { kind: 'token', value: CLEAN }, action: 'approve' })).json();
    expect(unstated.unknown).toEqual(['approval-amount']);
    expect(unstated.risk).toBe(5);
  });

  it('a check that cannot run is unknown and never yields allow with risk 0', async () => {
    t.sim.fault('gopluslabs', { kind: 'status', status: 500 });
    t.sim.fault('etherscan', { kind: 'status', status: 500 });
    const body = (await verify({ target: { kind: 'token', value: UNSEEN[0] } })).json();
    expect(body.unknown).toEqual(expect.arrayContaining(['token-risk', 'contract-risk', 'svc:token-impersonation']));
    expect(body.findings).toEqual([]);
    expect(body.risk).toBe(15);
    expect(body.verdict).not.toBe('block');
    expect(body.risk > 0 || body.verdict !== 'allow').toBe(true);
  });

  it('partial upstream answers leave the unanswered checks unknown, raising the risk', async () => {
    serveGoplus(t.sim, UNSEEN[1], { token_name: 'Half', token_symbol: 'HLF', is_honeypot: '0', is_open_source: '1' });
    t.sim.fault('etherscan', { kind: 'status', status: 500 });
    const body = (await verify({ target: { kind: 'token', value: UNSEEN[1] } })).json();
    expect(body.unknown).toEqual(
      expect.arrayContaining(['token-risk:cannot_sell_all', 'token-risk:mintable', 'contract-risk:upgradeable']),
    );
    expect(body.risk).toBe(20);
    expect(body.verdict).toBe('warn');
  });

  it('addresses: sanctions and reputation are unknown (no data type covers them), a known contract is labelled', async () => {
    const body = (
      await verify({ target: { kind: 'address', value: '0x3333333333333333333333333333333333333333' }, action: 'transfer' })
    ).json();
    expect(body).toMatchObject({
      verdict: 'allow',
      risk: 10,
      findings: [],
      unknown: ['sanctions', 'address-reputation'],
      checked: ['svc:address-label'],
    });
    const known = (await verify({ target: { kind: 'address', value: '0x514910771AF9Ca656af840dff83E8264EcF986CA' } })).json();
    expect(known.findings).toMatchObject([{ id: 'known_entity', severity: 'info', evidence: { entity_id: 'svc-ent:cr.chainlink' } }]);
  });

  it('contracts: proxy upgradability and the compiler from contract-risk', async () => {
    const body = (await verify({ target: { kind: 'contract', value: '0xA0b86991c6218b36c1d19d4A2e9Eb0cE3606eB48' } })).json();
    expect(ids(body.findings)).toEqual(['known_entity', 'old_compiler', 'proxy', 'upgradeable']);
    expect(body.findings.find((f: { id: string }) => f.id === 'upgradeable')).toMatchObject({
      severity: 'medium',
      source: 'contract-risk:etherscan',
      evidence: { implementation: '0x43506849d7c04f9138d1a2050bbf3a0c054402dd' },
    });
    expect(body).toMatchObject({ verdict: 'warn', risk: 35 });
  });

  it.each([
    ['url', 'https://app1e.com/login', 'lookalike_domain', 'high', 'warn'],
    ['url', 'https://xn--chinlink-2fg.com/claim', 'lookalike_domain', 'high', 'warn'],
    ['domain', 'uniswapp.org', 'lookalike_domain', 'high', 'warn'],
    ['domain', 'chainlink-airdrop.io', 'brand_in_domain', 'medium', 'warn'],
    ['url', 'https://wallet@198.51.100.7/', 'credentials_in_url', 'high', 'warn'],
  ])('%s %s → %s', async (kind, value, id, severity, verdict) => {
    const body = (await verify({ target: { kind, value }, action: 'visit' })).json();
    expect(body.findings).toEqual(expect.arrayContaining([expect.objectContaining({ id, severity, source: 'svc:url-rules' })]));
    expect(body.unknown).toEqual(['phishing-reputation', 'domain-age']);
    expect(body.verdict).toBe(verdict);
  });

  it('a plain domain gets no finding but stays unknown on reputation and age', async () => {
    const body = (await verify({ target: { kind: 'domain', value: 'example.org' } })).json();
    expect(body).toMatchObject({ verdict: 'allow', risk: 10, findings: [] });
    const insecure = (await verify({ target: { kind: 'url', value: 'http://example.org/' }, action: 'sign' })).json();
    expect(insecure.findings).toMatchObject([{ id: 'insecure_scheme', severity: 'high' }]);
  });
});

describe('POST /api/v1/shield/exploit-likelihood', () => {
  it('answers a noisy-OR probability with its factors and records a shield:exploit claim that a later reading resolves', async () => {
    serveHoneypot(t.sim);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shield/exploit-likelihood',
      payload: { chain: 'ethereum', address: HONEYPOT },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.factors.map((f: { id: string }) => f.id).sort()).toEqual(['cannot_sell_all', 'high_tax', 'honeypot', 'unverified_source']);
    // 1 − 0.98 × (1 − 0.9)(1 − 0.6)(1 − 0.15)(1 − 0.2)
    expect(body.probability).toBeCloseTo(1 - 0.98 * 0.1 * 0.4 * 0.85 * 0.8, 4);
    expect(body.probability_max).toBeGreaterThanOrEqual(body.probability);
    expect(body.claim).toMatchObject({ agent_id: 'shield:exploit', kind: 'exploit-7d' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shield/exploit-likelihood',
      payload: { chain: 'ethereum', address: HONEYPOT.toUpperCase().replace('0X', '0x') },
    });
    expect(again.json().claim.claim_id).toBe(body.claim.claim_id);

    const calib = new CalibrationService(new CalibrationRepo(t.deps.store.db), t.clock, t.deps.sources);
    t.clock.advance(169 * 3600_000);
    await calib.resolveDue();
    const claim = await calib.claim(body.claim.claim_id);
    expect(claim).toMatchObject({ status: 'resolved', outcome: 1, outcome_source: 'verified' });
    expect(JSON.parse(claim.evidence_json!)).toMatchObject({ resolver: 'shield_exploit', signals: ['honeypot', 'cannot_sell_all'] });
    const card = await t.app.inject({ method: 'GET', url: '/api/v1/calib/agent_card?agent_id=shield:exploit' });
    expect(card.statusCode, card.body).toBe(200);
    expect(JSON.stringify(card.json())).toContain('exploit-7d');
  });

  it('a clean token gets the base rate and resolves to 0; no data at all is a 503 without a claim', async () => {
    serveClean(t.sim);
    const body = (
      await t.app.inject({ method: 'POST', url: '/api/v1/shield/exploit-likelihood', payload: { chain: 'ethereum', address: CLEAN } })
    ).json();
    expect(body).toMatchObject({ probability: 0.02, factors: [], unknown: [] });
    const calib = new CalibrationService(new CalibrationRepo(t.deps.store.db), t.clock, t.deps.sources);
    t.clock.advance(169 * 3600_000);
    await calib.resolveDue();
    expect(await calib.claim(body.claim.claim_id)).toMatchObject({ status: 'resolved', outcome: 0 });
    t.sim.fault('gopluslabs', { kind: 'status', status: 500 });
    t.sim.fault('etherscan', { kind: 'status', status: 500 });
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/v1/shield/exploit-likelihood',
      payload: { chain: 'ethereum', address: '0x4444444444444444444444444444444444444444' },
    });
    expect(down.statusCode).toBe(503);
    expect(down.json().error).toBe('upstream_unavailable');
  });
});
