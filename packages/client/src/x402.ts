import type { Hex, TypedDataDefinition, WalletClient } from 'viem';
import { base64Decode, base64Encode, utf8Decode, utf8Encode } from './bytes.js';

/**
 * x402 `exact` payments with an EIP-3009 TransferWithAuthorization signed by a local account.
 * v2 (the `PAYMENT-REQUIRED` header, paid with `PAYMENT-SIGNATURE`) wins when the 402 carries it;
 * otherwise the v1 body (`x402Version: 1`, `accepts[]`, paid with `X-Payment`).
 */

/** USDC contracts the SDK will pay in, by chain id; anything else is refused (its value in USD is unknown). */
const USDC: Record<number, string> = {
  8453: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  84532: '0x036cbd53842c5426634e7929541ec2318f3dcf7e',
};
const V1_NETWORKS: Record<string, number> = { base: 8453, 'base-sepolia': 84532 };

/** One payable option, normalised across versions. */
export interface PaymentOption {
  version: 1 | 2;
  chainId: number;
  amount: bigint;
  payTo: Hex;
  asset: Hex;
  maxTimeoutSeconds: number;
  domain: { name: string; version: string };
  /** The requirement exactly as the server sent it (v2 echoes it in `accepted`). */
  raw: Record<string, unknown>;
}

export interface Challenge {
  version: 1 | 2;
  /** v2: the top-level `resource` object, echoed in the payload. */
  resource?: unknown;
  options: PaymentOption[];
  /** The server's reason for the 402, when it gave one. */
  reason?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeBase64Json(text: string): unknown {
  return JSON.parse(utf8Decode(base64Decode(text)));
}

function chainIdOf(network: unknown): number | undefined {
  if (typeof network !== 'string') return undefined;
  const caip2 = /^eip155:(\d+)$/.exec(network);
  return caip2 ? Number(caip2[1]) : V1_NETWORKS[network];
}

function toOption(version: 1 | 2, raw: unknown): PaymentOption | undefined {
  if (!isRecord(raw) || raw.scheme !== 'exact') return undefined;
  const chainId = chainIdOf(raw.network);
  const amount = version === 2 ? raw.amount : raw.maxAmountRequired;
  const extra = isRecord(raw.extra) ? raw.extra : {};
  if (chainId === undefined || typeof amount !== 'string' || !/^\d{1,30}$/.test(amount)) return undefined;
  if (typeof raw.asset !== 'string' || USDC[chainId] !== raw.asset.toLowerCase()) return undefined;
  if (typeof raw.payTo !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(raw.payTo)) return undefined;
  if (typeof extra.name !== 'string' || typeof extra.version !== 'string') return undefined;
  return {
    version,
    chainId,
    amount: BigInt(amount),
    payTo: raw.payTo as Hex,
    asset: raw.asset as Hex,
    maxTimeoutSeconds: Number(raw.maxTimeoutSeconds) || 60,
    domain: { name: extra.name, version: extra.version },
    raw,
  };
}

/** Reads a 402: the `PAYMENT-REQUIRED` header (v2) when present, else the v1 body. */
export function parseChallenge(headers: Headers, body: unknown): Challenge | undefined {
  const header = headers.get('payment-required');
  const bodyReason = isRecord(body) && typeof body.reason === 'string' ? body.reason : undefined;
  if (header) {
    try {
      const required = decodeBase64Json(header);
      if (isRecord(required) && required.x402Version === 2 && Array.isArray(required.accepts)) {
        const reason = typeof required.error === 'string' ? required.error : bodyReason;
        return { version: 2, resource: required.resource, options: required.accepts.flatMap((a) => toOption(2, a) ?? []), reason };
      }
    } catch {
      // An unreadable header: fall back to the body, as a v1 client would.
    }
  }
  if (isRecord(body) && body.x402Version === 1 && Array.isArray(body.accepts)) {
    return { version: 1, options: body.accepts.flatMap((a) => toOption(1, a) ?? []), reason: bodyReason };
  }
  return undefined;
}

const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The request header carrying a signed payment: its name depends on the version paid. */
export interface PaymentHeader {
  name: 'PAYMENT-SIGNATURE' | 'X-Payment';
  value: string;
}

/** The EIP-712 message a payment signs. */
export type AuthorizationTypedData = TypedDataDefinition<typeof AUTHORIZATION_TYPES, 'TransferWithAuthorization'>;

/** What signs a payment: an address and EIP-712 signing, as every viem account that can sign has. */
export interface PaymentSigner {
  address: Hex;
  signTypedData(typedData: AuthorizationTypedData): Promise<Hex>;
}

/**
 * A viem account that signs typed data (local, custom `toAccount`, smart account) or a viem wallet
 * client (a browser wallet, a JSON-RPC signer, or one holding a local account).
 */
export type PaymentWallet = PaymentSigner | WalletClient;

const isWalletClient = (wallet: PaymentWallet): wallet is WalletClient => 'getAddresses' in wallet && 'transport' in wallet;

/** The signer behind a wallet: a wallet client signs for its account, else for the first address it exposes. */
export async function paymentSigner(wallet: PaymentWallet): Promise<PaymentSigner> {
  if (!isWalletClient(wallet)) return wallet;
  const address = wallet.account?.address ?? (await wallet.getAddresses())[0];
  if (!address) throw new Error('the wallet client exposes no account: connect the wallet (requestAddresses) first');
  const account = wallet.account ?? address;
  return { address, signTypedData: (typedData) => wallet.signTypedData({ ...typedData, account }) };
}

/**
 * Signs `option` as x402 clients do: value = the price, validAfter = now − 600 s (clock skew),
 * validBefore = now + maxTimeoutSeconds, a random 32-byte nonce.
 */
export async function signPayment(
  account: PaymentSigner,
  challenge: Challenge,
  option: PaymentOption,
  nowS = Math.floor(Date.now() / 1000),
): Promise<PaymentHeader> {
  const nonce: Hex = `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  const authorization = {
    from: account.address,
    to: option.payTo,
    value: option.amount,
    validAfter: BigInt(nowS - 600),
    validBefore: BigInt(nowS + option.maxTimeoutSeconds),
    nonce,
  };
  const signature = await account.signTypedData({
    domain: { ...option.domain, chainId: option.chainId, verifyingContract: option.asset },
    types: AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const payload = {
    signature,
    authorization: {
      ...authorization,
      value: String(authorization.value),
      validAfter: String(authorization.validAfter),
      validBefore: String(authorization.validBefore),
    },
  };
  const body =
    option.version === 2
      ? { x402Version: 2, ...(challenge.resource === undefined ? {} : { resource: challenge.resource }), accepted: option.raw, payload }
      : { x402Version: 1, scheme: 'exact', network: option.raw.network, payload };
  const value = base64Encode(utf8Encode(JSON.stringify(body)));
  return { name: option.version === 2 ? 'PAYMENT-SIGNATURE' : 'X-Payment', value };
}

/** The settlement the server reported (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`), if any. */
export function readSettlement(headers: Headers): Record<string, unknown> | undefined {
  const header = headers.get('payment-response') ?? headers.get('x-payment-response');
  if (!header) return undefined;
  try {
    const decoded = decodeBase64Json(header);
    return isRecord(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}
