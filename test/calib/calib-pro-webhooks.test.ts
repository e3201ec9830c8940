import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalibrationService } from '../../src/calib/service.js';
import { RETRY_DELAYS_MS } from '../../src/calib/pro/webhooks.js';
import { CalibrationRepo } from '../../src/store/repos/calibration.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PAY_TO, paymentHeader } from '../helpers/x402.js';
import { publicKeyOf } from '../helpers/offline-verify.js';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback webhook receiver answering each request with the next status of `script` (then 200). */
class Receiver {
  readonly received: Received[] = [];
  readonly script = new Map<string, number[]>();
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      this.received.push({ path: req.url!, headers: req.headers, body });
      res.writeHead(this.script.get(req.url!)?.shift() ?? 200).end();
    });
  });
  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }
  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
  at = (path: string) => this.received.filter((r) => r.path === path);
}

/** What a receiver does with the documented headers and the svc public key. */
const signatureValid = (key: KeyObject, r: Received): boolean => {
  const [id, timestamp] = [String(r.headers['x-svc-webhook-id']), String(r.headers['x-svc-webhook-timestamp'])];
  const message = `svc-webhook-v1\n${id}\n${timestamp}\n${r.body}`;
  const sig = String(r.headers['x-svc-webhook-signature']);
  return sig.startsWith('ed25519-') && verify(null, Buffer.from(message), key, Buffer.from(sig.slice(8), 'base64url'));
};

const receiver = new Receiver();
let t: TestApp;
let port: number;
let key: KeyObject;
let calib: CalibrationService;
const agentKeys = new Map<string, string>();

beforeAll(async () => {
  port = await receiver.start();
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, SVC_WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1', SVC_FETCH_ALLOWED_PORTS: `80,443,${port}` },
  });
  key = publicKeyOf((await t.app.inject('/.well-known/svc-receipt-pubkey.json')).json());
  calib = new CalibrationService(new CalibrationRepo(t.deps.store.db), t.deps.clock, t.deps.sources);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const claimBody = (agent_id: string, predicted_p: number) => ({
  agent_id,
  kind: 'eth-up',
  predicted_p,
  payload: {},
  outcome_resolver: { type: 'manual', config: {} },
  ttl_hours: 24,
});
/** A new agent (its first claim free), then on calib-pro by a paid claim. */
async function proAgent(agentId: string): Promise<void> {
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/calib/record_claim', payload: claimBody(agentId, 0.5) });
  agentKeys.set(agentId, created.json().agent_key);
  const payment = await paymentHeader({ nowS: Math.floor(t.clock.now() / 1000), amount: 2000n });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/calib/record_claim?product=calib-pro',
    payload: claimBody(agentId, 0.5),
    headers: { 'x-payment': payment, authorization: `Bearer ${agentKeys.get(agentId)}` },
  });
  expect(res.json()).toMatchObject({ product: 'calib-pro' });
}
/** `n` claims at predicted_p resolved (verified) to `outcome`. */
async function resolved(agentId: string, n: number, predictedP: number, outcome: 0 | 1): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/calib/record_claim',
      payload: claimBody(agentId, predictedP),
      headers: { authorization: `Bearer ${agentKeys.get(agentId)}` },
    });
    await calib.recordOutcome(res.json().claim_id, outcome, {}, 'verified');
  }
}
const setAlerts = (agent_id: string, webhook_url: string | null, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/calib/pro/alerts',
    payload: { agent_id, webhook_url, ece_threshold: 0.2, min_resolved: 10, ...extra },
    headers: { authorization: `Bearer ${agentKeys.get(agent_id)}` },
  });
const deliveries = (agentId: string) =>
  t.deps.store.db.selectFrom('calib_webhook_deliveries').selectAll().where('agent_id', '=', agentId).execute();

describe('calib-pro drift alerts', () => {
  it('refuses webhook URLs it could never deliver to, naming webhook_url, and alerts for pro agents only', async () => {
    await proAgent('test:hooks');
    for (const url of ['http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'ftp://example.com/x', 'http://example.com:8081/x']) {
      const res = await setAlerts('test:hooks', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().details.field).toBe('webhook_url');
    }
    const free = await t.app.inject({ method: 'POST', url: '/api/v1/calib/record_claim', payload: claimBody('test:hooks-free', 0.5) });
    agentKeys.set('test:hooks-free', free.json().agent_key);
    expect((await setAlerts('test:hooks-free', `http://127.0.0.1:${port}/free`)).json().details.reason).toBe('calib_pro_required');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/calib/pro/alerts',
          payload: { agent_id: 'test:hooks', webhook_url: null, ece_threshold: 0.2 },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('sends a signed calib.drift event when ECE passes the threshold, retries a failed delivery on the clock, and a calib.recovered one later', async () => {
    const agent = 'test:drifty';
    await proAgent(agent);
    expect((await setAlerts(agent, `http://127.0.0.1:${port}/drift`)).statusCode).toBe(200);
    receiver.script.set('/drift', [500]);
    // 10 verified misses at 0.9: ECE 0.9 > 0.2.
    await resolved(agent, 10, 0.9, 0);
    await t.app.scheduler.tick();
    const [first] = receiver.at('/drift');
    expect(first).toBeDefined();
    expect(signatureValid(key, first!)).toBe(true);
    expect(signatureValid(key, { ...first!, body: first!.body.replace('"ece":0.9', '"ece":0.1') })).toBe(false);
    const event = JSON.parse(first!.body);
    expect(event).toMatchObject({
      type: 'calib.drift',
      agent_id: agent,
      kind: 'eth-up',
      window: '30d',
      threshold: 0.2,
      resolved: 10,
      previous_ece: null,
    });
    expect(event.ece).toBeCloseTo(0.9, 12);
    expect(first!.headers['x-svc-webhook-id']).toBe(event.id);
    expect(await deliveries(agent)).toMatchObject([
      { status: 'pending', attempts: 1, last_error: 'HTTP 500', next_attempt_at: t.clock.now() + RETRY_DELAYS_MS[0] },
    ]);

    t.clock.advance(30_000);
    await t.app.scheduler.tick();
    expect(receiver.at('/drift')).toHaveLength(1);
    t.clock.advance(RETRY_DELAYS_MS[0]);
    await t.app.scheduler.tick();
    const attempts = receiver.at('/drift');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.body).toBe(first!.body);
    expect(attempts[1]!.headers['x-svc-webhook-id']).toBe(event.id);
    expect(Number(attempts[1]!.headers['x-svc-webhook-timestamp'])).toBeGreaterThan(Number(first!.headers['x-svc-webhook-timestamp']));
    expect(signatureValid(key, attempts[1]!)).toBe(true);
    expect(await deliveries(agent)).toMatchObject([{ status: 'delivered', attempts: 2, last_error: null }]);

    // Still drifting: nothing new. Then 40 verified hits at 0.9 bring the 30-day ECE to |40/50 − 0.9| = 0.1.
    t.clock.advance(5 * 60_000);
    await t.app.scheduler.tick();
    expect(receiver.at('/drift')).toHaveLength(2);
    await resolved(agent, 40, 0.9, 1);
    t.clock.advance(5 * 60_000);
    await t.app.scheduler.tick();
    const recovered = JSON.parse(receiver.at('/drift')[2]!.body);
    expect(recovered).toMatchObject({ type: 'calib.recovered', resolved: 50 });
    expect(recovered.ece).toBeCloseTo(0.1, 12);
    expect(recovered.previous_ece).toBeCloseTo(0.9, 12);
    const view = await t.app.inject({
      url: '/api/v1/calib/pro/alerts',
      query: { agent_id: agent },
      headers: { authorization: `Bearer ${agentKeys.get(agent)}` },
    });
    expect(view.json()).toMatchObject({
      agent_id: agent,
      ece_threshold: 0.2,
      min_resolved: 10,
      kinds: [{ kind: 'eth-up', drifting: false }],
      deliveries: [
        { id: recovered.id, type: 'calib.recovered', status: 'delivered', attempts: 1 },
        { id: event.id, type: 'calib.drift', status: 'delivered', attempts: 2, last_error: null },
      ],
    });
    expect((await t.app.inject({ url: '/api/v1/calib/pro/alerts', query: { agent_id: agent } })).statusCode).toBe(401);
  });

  it('gives up after the last retry', async () => {
    const agent = 'test:down';
    await proAgent(agent);
    await setAlerts(agent, `http://127.0.0.1:${port}/down`);
    receiver.script.set('/down', Array(10).fill(503));
    await resolved(agent, 10, 0.1, 1);
    t.clock.advance(5 * 60_000);
    await t.app.scheduler.tick();
    for (const delay of RETRY_DELAYS_MS) {
      t.clock.advance(delay);
      await t.app.scheduler.tick();
    }
    expect(receiver.at('/down')).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(await deliveries(agent)).toMatchObject([{ status: 'failed', attempts: RETRY_DELAYS_MS.length + 1, last_error: 'HTTP 503' }]);
    t.clock.advance(86_400_000);
    await t.app.scheduler.tick();
    expect(receiver.at('/down')).toHaveLength(RETRY_DELAYS_MS.length + 1);
  });
});
