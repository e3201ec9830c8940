/**
 * Pays for a bundle with a stock x402 client:
 *   SVC_URL=http://localhost:8080 PAYER_KEY=0x<private key> npx tsx examples/pay-bundle.ts
 * The client reads the 402's PAYMENT-REQUIRED header (x402 v2), signs an EIP-3009 USDC
 * authorization for accepts[0] and retries with PAYMENT-SIGNATURE. Without PAYER_KEY a throwaway key is used (its payment verifies but
 * cannot settle on chain).
 */
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const base = process.env.SVC_URL ?? 'http://localhost:8080';
const account = privateKeyToAccount((process.env.PAYER_KEY as `0x${string}` | undefined) ?? generatePrivateKey());

const client = new x402Client();
registerExactEvmScheme(client, { signer: account });
const pay = wrapFetchWithPayment(fetch, client);

const res = await pay(`${base}/api/data/bundle`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    queries: [
      { type: 'crypto-price', q: 'bitcoin,ethereum' },
      { type: 'economic-indicator', q: 'DGS10' },
    ],
  }),
});
const settlement = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
console.log(res.status, settlement ? Buffer.from(settlement, 'base64').toString('utf8') : '(not settled synchronously)');
console.log(JSON.stringify(await res.json(), null, 2));
