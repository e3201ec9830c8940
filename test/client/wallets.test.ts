import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, custom, type Hex, type TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount, toAccount } from 'viem/accounts';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FakeFacilitator } from '../helpers/facilitator.js';
import { PAY_TO } from '../helpers/x402.js';
import { WallClock } from './wall-clock.js';
import { createClient, type PaymentWallet } from '../../packages/client/src/index.js';

/** Payments signed by any viem account or wallet client, verified and settled by the service. */
let t: TestApp;
let base: string;
const facilitator = new FakeFacilitator();
const oneQuery = { queries: [{ type: 'crypto-price' as const, q: 'bitcoin' }] };

beforeAll(async () => {
  t = await startTestApp({
    env: { SVC_PAY_TO: PAY_TO, PAYMENT_SETTLE: 'sync', X402_FACILITATOR_URL: await facilitator.start() },
    clock: new WallClock(),
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await facilitator.close();
});

/**
 * A wallet reached over EIP-1193 only (as a browser extension is): it lists its account and signs
 * `eth_signTypedData_v4` requests, whose JSON carries the uint256 fields as strings.
 */
function rpcWallet(key: Hex) {
  const inside = privateKeyToAccount(key);
  const methods: string[] = [];
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    methods.push(method);
    if (method === 'eth_accounts') return [inside.address];
    if (method !== 'eth_signTypedData_v4') throw new Error(`unsupported ${method}`);
    const typedData = JSON.parse((params as [string, string])[1]) as TypedDataDefinition & { message: Record<string, unknown> };
    const { EIP712Domain: _domain, ...types } = typedData.types as Record<string, unknown>;
    const message = { ...typedData.message };
    for (const field of ['value', 'validAfter', 'validBefore']) message[field] = BigInt(message[field] as string);
    return inside.signTypedData({ ...typedData, types, message } as TypedDataDefinition);
  };
  return { address: inside.address, methods, client: createWalletClient({ transport: custom({ request }) }) };
}

async function payWith(wallet: PaymentWallet) {
  const client = createClient({ baseUrl: base, wallet });
  const body = await client.bundle(oneQuery);
  return { body, payment: client.lastPayment(), settled: facilitator.settled.at(-1)! };
}

describe('paying with any viem signer', () => {
  it('a wallet client holding a local account', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { body, payment, settled } = await payWith(
      createWalletClient({ account, transport: custom({ request: () => Promise.reject(new Error('no RPC')) }) }),
    );
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(payment).toMatchObject({ payer: account.address, settlement: { success: true, payer: account.address } });
    expect(settled.paymentPayload.payload.authorization.from).toBe(account.address);
  });

  it('a wallet client over EIP-1193 with no account of its own (the first address it lists signs)', async () => {
    const wallet = rpcWallet(generatePrivateKey());
    const { body, payment } = await payWith(wallet.client);
    expect(body.payment).toEqual({ method: 'x402', charged: true });
    expect(payment).toMatchObject({ payer: wallet.address, settlement: { success: true } });
    expect(wallet.methods).toEqual(['eth_accounts', 'eth_signTypedData_v4']);
  });

  it('a custom account (toAccount), e.g. backed by a KMS', async () => {
    const key = privateKeyToAccount(generatePrivateKey());
    const account = toAccount({
      address: key.address,
      signMessage: (m) => key.signMessage(m),
      signTransaction: (tx) => key.signTransaction(tx),
      signTypedData: (typedData) => key.signTypedData(typedData),
    });
    const { payment } = await payWith(account);
    expect(payment).toMatchObject({ payer: key.address, settlement: { success: true } });
  });

  it('a wallet client that exposes no address is refused before anything is booked', async () => {
    const empty = createWalletClient({ transport: custom({ request: async () => [] }) });
    const client = createClient({ baseUrl: base, wallet: empty });
    expect(await client.bundle(oneQuery).catch((e) => e)).toMatchObject({ message: expect.stringContaining('no account') });
    expect(client.spent()).toBe(0n);
  });
});
