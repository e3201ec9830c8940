import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../src/demo/simulator.js';
import { loadFixtures } from '../../src/upstream/fixtures.js';
import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, paymentHeader, paymentRequired } from '../helpers/x402.js';

/** Issue 15, finding 3: the facilitator is asked what it settles at start-up and is called with the configured auth. */
const oneQuery = { queries: [{ type: 'crypto-price', q: 'bitcoin' }] };
const nowS = (t: TestApp) => Math.floor(t.clock.now() / 1000);
const settling = (url: string, env: Record<string, string> = {}) => ({
  SVC_PAY_TO: PAY_TO,
  PAYMENT_SETTLE: 'sync',
  X402_FACILITATOR_URL: url,
  ...env,
});

/** Starts an app against a fake facilitator, runs `use`, closes both. */
async function withFacilitator(
  setup: (f: FakeFacilitator) => void,
  env: Record<string, string>,
  use: (t: TestApp, f: FakeFacilitator) => Promise<void>,
) {
  const facilitator = new FakeFacilitator();
  setup(facilitator);
  const t = await startTestApp({ env: settling(await facilitator.start(), env) });
  try {
    await use(t, facilitator);
  } finally {
    await t.close();
    await facilitator.close();
  }
}

describe('GET /supported at start-up', () => {
  // Apps that fail to start cannot close their simulator: they share this one.
  let sim: Simulator;
  beforeAll(async () => {
    sim = await new Simulator(loadFixtures()).start();
  });
  afterAll(() => sim.close());

  it('a facilitator that settles only v1 on base: the 402 offers v1 only and a v2 payment is refused', () =>
    withFacilitator(
      (f) => (f.kinds = [{ x402Version: 1, scheme: 'exact', network: 'base' }]),
      {},
      async (t) => {
        const challenge = await t.app.inject({ method: 'POST', url: '/api/data/bundle', payload: oneQuery });
        expect(challenge.headers['payment-required']).toBeUndefined();
        const [v1] = challenge.json().accepts;
        expect(v1).toMatchObject({ network: 'base', maxAmountRequired: '1000' });
        const accepted = {
          scheme: 'exact',
          network: 'eip155:8453',
          amount: '1000',
          asset: v1.asset,
          payTo: v1.payTo,
          maxTimeoutSeconds: v1.maxTimeoutSeconds,
          extra: v1.extra,
        };
        const v2 = await t.app.inject({
          method: 'POST',
          url: '/api/data/bundle',
          payload: oneQuery,
          headers: { 'payment-signature': await paymentHeader({ nowS: nowS(t), amount: 1000n, accepted }) },
        });
        expect(v2.json().reason).toBe('invalid_x402_version');
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/data/bundle',
              payload: oneQuery,
              headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
            })
          ).statusCode,
        ).toBe(200);
      },
    ));

  it('a facilitator that settles only v2: the 402 body keeps the invoice but offers no v1 accepts', () =>
    withFacilitator(
      (f) => (f.kinds = [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }]),
      {},
      async (t) => {
        const challenge = await t.app.inject({ method: 'POST', url: '/api/data/bundle', payload: oneQuery });
        expect(challenge.json()).toMatchObject({ accepts: [], invoice: { amount: '1000' } });
        expect(paymentRequired(challenge.headers['payment-required']).accepts[0]).toMatchObject({ network: 'eip155:8453' });
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: '/api/data/bundle',
              payload: oneQuery,
              headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
            })
          ).json().reason,
        ).toBe('invalid_x402_version');
      },
    ));

  it('a facilitator that settles nothing svc offers stops start-up with a message naming what it lists', async () => {
    const facilitator = new FakeFacilitator();
    facilitator.kinds = [{ x402Version: 2, scheme: 'exact', network: 'eip155:84532' }];
    const url = await facilitator.start();
    await expect(startTestApp({ sim, env: settling(url) })).rejects.toThrow(
      /settles neither exact on base \(x402 v1\) nor on eip155:8453 \(v2\); it lists v2 exact eip155:84532/,
    );
    await facilitator.close();
  });

  it('an unreachable facilitator stops start-up, naming the URL', async () => {
    await expect(startTestApp({ sim, env: settling('http://127.0.0.1:9') })).rejects.toThrow(
      /GET http:\/\/127\.0\.0\.1:9\/supported failed/,
    );
  });
});

describe('facilitator authentication', () => {
  it('bearer: every call carries the token', () =>
    withFacilitator(
      () => {},
      { X402_FACILITATOR_AUTH: 'bearer', X402_FACILITATOR_TOKEN: 'fac-token-123' },
      async (t, f) => {
        await t.app.inject({
          method: 'POST',
          url: '/api/data/bundle',
          payload: oneQuery,
          headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
        });
        expect(f.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /supported', 'POST /settle']);
        expect(f.requests.every((r) => r.headers.authorization === 'Bearer fac-token-123')).toBe(true);
      },
    ));

  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = generateKeyPairSync('ed25519');
  const edSecret = () => {
    const jwk = ed.privateKey.export({ format: 'jwk' });
    return Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64');
  };
  it.each([
    ['an EC (SEC1 PEM) key', ec.privateKey.export({ format: 'pem', type: 'sec1' }).toString(), ec.publicKey, 'ES256'],
    ['an Ed25519 (base64) key', edSecret(), ed.publicKey, 'EdDSA'],
  ])('cdp with %s: a fresh JWT per call, for that method and URL, that the key verifies', (_name, secret, publicKey, alg) =>
    withFacilitator(
      () => {},
      { X402_FACILITATOR_AUTH: 'cdp', CDP_API_KEY_ID: 'organizations/o/apiKeys/k', CDP_API_KEY_SECRET: secret },
      async (t, f) => {
        await t.app.inject({
          method: 'POST',
          url: '/api/data/bundle',
          payload: oneQuery,
          headers: { 'x-payment': await paymentHeader({ nowS: nowS(t), amount: 1000n }) },
        });
        const host = new URL(t.deps.config.facilitatorUrl!).host;
        const tokens = f.requests.map((r) => String(r.headers.authorization).replace(/^Bearer /, ''));
        expect(new Set(tokens).size).toBe(2);
        for (const [i, expectedUri] of [`GET ${host}/supported`, `POST ${host}/settle`].entries()) {
          const { payload } = await jwtVerify(tokens[i]!, publicKey, {
            issuer: 'cdp',
            subject: 'organizations/o/apiKeys/k',
            algorithms: [alg],
          });
          expect(payload.uris).toEqual([expectedUri]);
          expect(payload.exp! - payload.nbf!).toBe(120);
          expect(decodeProtectedHeader(tokens[i]!)).toMatchObject({
            alg,
            kid: 'organizations/o/apiKeys/k',
            typ: 'JWT',
            nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
          });
        }
      },
    ),
  );
});

describe('facilitator configuration', () => {
  it.each([
    [{ X402_FACILITATOR_AUTH: 'bearer' }, /X402_FACILITATOR_TOKEN: required/],
    [{ X402_FACILITATOR_AUTH: 'cdp', CDP_API_KEY_ID: 'k' }, /CDP_API_KEY_ID, CDP_API_KEY_SECRET: both required/],
    [{ X402_FACILITATOR_AUTH: 'jwt' }, /X402_FACILITATOR_AUTH/],
  ])('%o stops start-up naming the variable', (env, message) => {
    expect(() => loadConfig({ ...settling('http://127.0.0.1:1'), ...env })).toThrow(message);
  });
});
