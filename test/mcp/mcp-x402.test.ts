import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { extractDiscoveryInfo, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { createPaymentHeader } from 'x402/client';
import { PaymentRequirementsSchema } from 'x402/types';
import { ManualClock, unixSeconds } from '../../src/core/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO, payer, paymentHeader } from '../helpers/x402.js';

/**
 * x402 over MCP as the x402 MCP transport has it, paid by a client built on @x402/core: the unpaid
 * call's PaymentRequired is turned into a payload by `x402Client.createPaymentPayload`, sent in
 * `_meta["x402/payment"]`, verified like the HTTP header and settled by a loopback facilitator.
 */
const facilitator = new FakeFacilitator();
let t: TestApp;
let mcp: Client;
const payments = new x402Client();
registerExactEvmScheme(payments, { signer: payer });

beforeAll(async () => {
  const url = await facilitator.start();
  // The x402 client signs with the real clock, so the service runs on the real clock too.
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, X402_FACILITATOR_URL: url, PAYMENT_SETTLE: 'sync' },
    clock: new ManualClock(Date.now()),
  });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  mcp = new Client({ name: 'x402-mcp-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await mcp?.close();
  await t.close();
  await facilitator.close();
});

/** A paid bundle of one weather query: each test asks for its own place, so each is its own request. */
const bundleWith = (place: string, meta?: Record<string, unknown>, client = () => mcp) =>
  client().callTool({
    name: 'bundle',
    arguments: { queries: [{ type: 'weather', q: place }] },
    ...(meta ? { _meta: meta } : {}),
  }) as Promise<CallToolResult>;
const bundle = (place: string, payment?: unknown) => bundleWith(place, payment ? { 'x402/payment': payment } : undefined);

/** The unpaid call's PaymentRequired, paid by the x402 client. */
async function payFor(q: string) {
  const unpaid = await bundle(q);
  expect(unpaid.isError).toBe(true);
  expect(JSON.parse((unpaid.content[0] as { text: string }).text)).toEqual(unpaid.structuredContent);
  return payments.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
}

describe('x402 over MCP', () => {
  it('pays a v2 PaymentRequired through _meta and answers with the settlement in _meta; a replay gets the stored answer', async () => {
    const payload = await payFor('40.7,-74.0');
    expect(payload.x402Version).toBe(2);
    const paid = await bundle('40.7,-74.0', payload);
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toMatchObject({ count: 1, payment: { method: 'x402', charged: true } });
    expect(paid._meta?.['x402/payment-response']).toMatchObject({ success: true, network: 'eip155:8453', payer: payer.address });
    const settled = facilitator.settled.length;
    const replay = await bundle('40.7,-74.0', payload);
    expect(replay.structuredContent).toEqual(paid.structuredContent);
    expect(replay._meta?.['x402/payment-response']).toEqual(paid._meta?.['x402/payment-response']);
    // The rate-limit numbers describe each exchange anew: the replay took one more request from the bucket.
    expect(replay._meta?.['svc/ratelimit']).toMatchObject({ policy: 'anonymous', window_s: 60, remaining: expect.any(Number) });
    expect(facilitator.settled).toHaveLength(settled);
  });

  it('pays with a v1 payload too, settled as v1', async () => {
    const v1 = JSON.parse(Buffer.from(await paymentHeader({ nowS: unixSeconds(t.clock), amount: 1000n }), 'base64').toString('utf8'));
    const paid = await bundle('51.5,-0.1', v1);
    expect(paid.isError).toBeFalsy();
    expect(paid._meta?.['x402/payment-response']).toMatchObject({ success: true, network: 'base' });
  });

  it('takes x402-mcp\'s _meta["x402.payment"] (the v1 X-PAYMENT string) and answers its settlement under its own key', async () => {
    const header = await paymentHeader({ nowS: unixSeconds(t.clock), amount: 1000n });
    const paid = await bundleWith('52.5,13.4', { 'x402.payment': header });
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toMatchObject({ payment: { method: 'x402', charged: true } });
    expect(paid._meta?.['x402.payment-response']).toMatchObject({ success: true, network: 'base', payer: payer.address });
    expect(paid._meta?.['x402/payment-response']).toBeUndefined();
  });

  it('the unpaid PaymentRequired names the tool in its Bazaar entry, not the HTTP route behind it', async () => {
    const required = (await bundle('45.4,12.3')).structuredContent as Record<string, any>;
    const bazaar = required.extensions.bazaar;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    // A facilitator catalogs what a payment echoes of it.
    const payload = await payments.createPaymentPayload(required as unknown as PaymentRequired);
    const info = extractDiscoveryInfo(payload, payload.accepted)!.discoveryInfo;
    expect(info.input).toMatchObject({ type: 'mcp', toolName: 'bundle', transport: 'streamable-http' });
    expect(info.input).toMatchObject({
      inputSchema: { properties: { queries: { type: 'array' } } },
      example: { queries: expect.any(Array) },
    });
    expect(JSON.stringify(required)).not.toContain('"type":"http"');
  });

  it('x402-mcp pays a v1 requirement of the unpaid result, as its generatePaymentAuthorization tool does', async () => {
    const required = (await bundle('44.4,26.1')).structuredContent as { accepts: Record<string, unknown>[] };
    // x402-mcp's model picks the requirement its tool schema takes: x402 1.2.0's v1 PaymentRequirements on `base`.
    const v1 = required.accepts.filter((r) => PaymentRequirementsSchema.safeParse(r).success);
    expect(v1).toHaveLength(1);
    expect(v1[0]).toMatchObject({ network: 'base', maxAmountRequired: '1000', payTo: PAY_TO });
    const authorization = await createPaymentHeader(payer, 1, PaymentRequirementsSchema.parse(v1[0]));
    const paid = await bundleWith('44.4,26.1', { 'x402.payment': authorization });
    expect(paid.isError).toBeFalsy();
    expect(paid._meta?.['x402.payment-response']).toMatchObject({ success: true, network: 'base', payer: payer.address });
  });

  it('refuses an unreadable x402.payment as the malformed payment header it is, rather than ignoring it', async () => {
    const refused = await bundleWith('41.9,12.5', { 'x402.payment': 'not a payment' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'bad_request', details: { field: 'X-Payment', rule: 'json' } });
  });

  it('refuses a payload that does not verify with the PaymentRequired naming the reason', async () => {
    const forged = await paymentHeader({ nowS: unixSeconds(t.clock), amount: 1000n, impostor: true });
    const refused = await bundle('48.9,2.3', JSON.parse(Buffer.from(forged, 'base64').toString('utf8')));
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ x402Version: 2, error: 'invalid_exact_evm_payload_signature' });
  });

  it('a call that charges nothing releases the payment, which then pays for the same call', async () => {
    const payload = await payFor('12.5,12.5');
    for (const host of ['open-meteo', 'met-no']) t.sim.fault(host, { kind: 'status', status: 500 });
    const failed = await bundle('12.5,12.5', payload);
    t.sim.clearFaults();
    t.deps.upstream.resetBreakers();
    expect(failed.structuredContent).toMatchObject({ payment: { charged: false }, results: [{ ok: false }] });
    expect(failed._meta?.['x402/payment-response']).toBeUndefined();
    const again = await bundle('12.5,12.5', payload);
    expect(again.structuredContent).toMatchObject({ payment: { charged: true }, results: [{ ok: true }] });
    expect(again._meta?.['x402/payment-response']).toMatchObject({ success: true });
  });

  it('a failed settlement is the PaymentRequired again, carrying the failure', async () => {
    const payload = await payFor('35.7,139.7');
    facilitator.succeed = false;
    const failed = await bundle('35.7,139.7', payload);
    facilitator.succeed = true;
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ x402Version: 2, error: 'settlement_failed' });
  });
});

describe('x402 over MCP without settlement (PAYMENT_SETTLE=off)', () => {
  let off: TestApp;
  let client: Client;
  beforeAll(async () => {
    off = await startTestApp({ env: { SVC_PAY_TO: PAY_TO }, clock: new ManualClock(Date.now()) });
    client = new Client({ name: 'x402-mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${await off.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await off?.close();
  });

  it('says in _meta what X-Payment-Status says over HTTP: the payment is recorded unsettled', async () => {
    const header = await paymentHeader({ nowS: unixSeconds(off.clock), amount: 1000n });
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as unknown;
    const paid = await bundleWith('59.3,18.1', { 'x402/payment': payload }, () => client);
    expect(paid.structuredContent).toMatchObject({ payment: { method: 'x402', charged: false } });
    expect(paid._meta).toMatchObject({ 'svc/payment-status': 'unsettled' });
    expect(paid._meta?.['x402/payment-response']).toBeUndefined();
    const http = await off.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      headers: { 'x-payment': await paymentHeader({ nowS: unixSeconds(off.clock), amount: 1000n }) },
      payload: { queries: [{ type: 'weather', q: '59.3,18.1' }] },
    });
    expect(http.headers['x-payment-status']).toBe(paid._meta?.['svc/payment-status']);
  });
});
