import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { USDC_NETWORKS } from '../../src/payments/networks.js';
import { verifyPayment, type Payment } from '../../src/payments/x402.js';
import { PAY_TO } from '../helpers/x402.js';
import { PaymentRequiredError, createClient } from '../../packages/client/src/index.js';

/**
 * The SDK against a loopback x402 v2 server (the service speaks v1 until it learns v2): the
 * `PAYMENT-REQUIRED` header wins over the v1 body, the payment goes in `PAYMENT-SIGNATURE` with the
 * requirement echoed as `accepted`, and its EIP-3009 signature is what svc's own verifier accepts.
 */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const requirement = (asset: string = USDC_NETWORKS.base.usdc) => ({
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '1000',
  asset,
  payTo: PAY_TO,
  maxTimeoutSeconds: 120,
  extra: { name: 'USD Coin', version: '2' },
});
const resource = { url: 'http://v2.test/api/data/bundle', description: 'a bundle of 2 queries', mimeType: 'application/json' };
/** A v1 body with another price: the SDK must not read it when the header is there. */
const v1Body = {
  x402Version: 1,
  accepts: [
    {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '999999',
      resource: resource.url,
      description: '',
      mimeType: 'application/json',
      payTo: PAY_TO,
      maxTimeoutSeconds: 120,
      asset: USDC_NETWORKS.base.usdc,
      extra: { name: 'USD Coin', version: '2' },
    },
  ],
};

let offered = requirement();
const received: { header: string; payload: Record<string, unknown>; verdict: unknown }[] = [];
let server: Server;
let base: string;

async function answer(req: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  const header = req.headers['payment-signature'];
  if (typeof header !== 'string')
    return {
      status: 402,
      headers: { 'payment-required': b64({ x402Version: 2, error: 'PAYMENT-SIGNATURE header is required', resource, accepts: [offered] }) },
      body: v1Body,
    };
  const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  // svc's own verifier checks the v2 payment exactly as it would on its routes.
  const payment: Payment = {
    version: 2,
    scheme: 'exact',
    network: 'base',
    payload: payload.payload,
    accepted: payload.accepted,
    wire: payload,
  };
  const verdict = await verifyPayment(payment, {
    network: 'base',
    payTo: PAY_TO,
    amount: 1000n,
    maxTimeoutSeconds: 120,
    nowS: Math.floor(Date.now() / 1000),
  });
  received.push({ header, payload, verdict });
  if (!verdict.ok)
    return {
      status: 402,
      headers: { 'payment-required': b64({ x402Version: 2, error: verdict.reason, resource, accepts: [offered] }) },
      body: {},
    };
  return {
    status: 200,
    headers: {
      'payment-response': b64({ success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453', payer: verdict.payer }),
    },
    body: { count: 2, results: [], payment: { method: 'x402', charged: true } },
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume().on('end', () => {
      void answer(req).then(({ status, headers, body }) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('SDK with an x402 v2 server', () => {
  it('pays the PAYMENT-REQUIRED header with PAYMENT-SIGNATURE and reads PAYMENT-RESPONSE', async () => {
    offered = requirement();
    const account = privateKeyToAccount(generatePrivateKey());
    const client = createClient({ baseUrl: base, wallet: account });
    const body = await client.bundle({ queries: [{ type: 'crypto-price', q: 'bitcoin' }] });
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    const { payload, verdict } = received.at(-1)!;
    expect(verdict).toEqual({ ok: true, payer: account.address });
    expect(payload).toMatchObject({ x402Version: 2, resource, accepted: requirement() });
    expect(payload).not.toHaveProperty('scheme');
    expect(payload.payload).toMatchObject({ authorization: { from: account.address, to: PAY_TO, value: '1000' } });
    expect(client.spent()).toBe(1000n);
    expect(client.lastPayment()).toMatchObject({
      version: 2,
      amount: 1000n,
      settlement: { success: true, network: 'eip155:8453', payer: account.address },
    });
  });

  it('refuses to pay an asset it cannot value in USD, before signing', async () => {
    offered = requirement('0x1234567890123456789012345678901234567890');
    const before = received.length;
    const client = createClient({ baseUrl: base, wallet: privateKeyToAccount(generatePrivateKey()) });
    const error = await client.bundle({ queries: [{ type: 'crypto-price', q: 'bitcoin' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.message).toContain('offers no payment the client can make');
    expect(received.length).toBe(before);
    expect(client.spent()).toBe(0n);
  });
});
