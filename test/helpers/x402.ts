import { randomBytes } from 'node:crypto';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { parseSignature, serializeErc6492Signature, serializeSignature, type Hex } from 'viem';
import { AUTHORIZATION_TYPES, usdcDomain } from '../../src/payments/x402.js';
import type { X402Network } from '../../src/payments/networks.js';

export const PAY_TO = '0x1111111111111111111111111111111111111111';
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface PaymentOptions {
  nowS: number;
  amount: bigint | string;
  to?: string;
  network?: X402Network;
  signNetwork?: X402Network;
  validAfter?: number;
  validBefore?: number;
  nonce?: Hex;
  /** Sign with another key than the one named in `from`. */
  impostor?: boolean;
  /** Malleate the signature to its high-s twin. */
  highS?: boolean;
  encoding?: 'base64' | 'raw';
  /** Build an x402 v2 payload (for PAYMENT-SIGNATURE) echoing this requirement from a PAYMENT-REQUIRED header. */
  accepted?: Record<string, unknown>;
  /** Pay from a not-yet-deployed smart wallet: `from` is the wallet, the signature its owner's wrapped in EIP-6492. */
  smartWallet?: boolean;
}

/** A counterfactual smart wallet and the factory that would deploy it (EIP-6492). */
export const SMART_WALLET = '0x5a11e7000000000000000000000000000000c0de';
const WALLET_FACTORY = '0x0ba5ed0c6aa8c49038f819e587e2633c4a9f428a';

export const payer = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

/** An X-Payment header as x402 clients build it: an EIP-3009 authorization signed with EIP-712. */
export async function paymentHeader(o: PaymentOptions): Promise<string> {
  const network = o.network ?? 'base';
  const authorization = {
    from: o.smartWallet ? (SMART_WALLET as Hex) : payer.address,
    to: (o.to ?? PAY_TO) as Hex,
    value: BigInt(o.amount),
    validAfter: BigInt(o.validAfter ?? o.nowS - 600),
    validBefore: BigInt(o.validBefore ?? o.nowS + 120),
    nonce: o.nonce ?? `0x${randomBytes(32).toString('hex')}`,
  };
  const signer = o.impostor ? other : payer;
  let signature = await signer.signTypedData({
    domain: usdcDomain(o.signNetwork ?? network),
    types: AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  if (o.highS) {
    const { r, s, yParity } = parseSignature(signature);
    signature = serializeSignature({ r, s: `0x${(N - BigInt(s)).toString(16).padStart(64, '0')}`, yParity: yParity === 0 ? 1 : 0 });
  }
  if (o.smartWallet) {
    const deploy = `0x5fbfb9cf${payer.address.slice(2).padStart(64, '0')}${'0'.repeat(64)}` as Hex; // createAccount(owner, salt)
    signature = serializeErc6492Signature({ address: WALLET_FACTORY, data: deploy, signature });
  }
  const exact = {
    signature,
    authorization: {
      ...authorization,
      value: authorization.value.toString(),
      validAfter: authorization.validAfter.toString(),
      validBefore: authorization.validBefore.toString(),
    },
  };
  const payload = o.accepted
    ? { x402Version: 2, accepted: o.accepted, payload: exact }
    : { x402Version: 1, scheme: 'exact', network, payload: exact };
  const json = JSON.stringify(payload);
  return o.encoding === 'raw' ? json : Buffer.from(json).toString('base64');
}

/** The x402 v2 PaymentRequired a 402 carries in its `PAYMENT-REQUIRED` header. */
export const paymentRequired = (header: string | string[] | number | undefined) =>
  JSON.parse(Buffer.from(String(header), 'base64').toString('utf8'));
