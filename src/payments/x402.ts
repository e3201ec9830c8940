import Type from 'typebox';
import { Compile } from 'typebox/compile';
import type { Hex } from 'viem';
import { importOnce } from '../core/import-once.js';
import { USDC_NETWORKS, networkOfCaip2, type X402Network } from './networks.js';

/** EIP-3009 TransferWithAuthorization, the message an x402 `exact` EVM payment signs. */
export const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

const EIP712_DOMAIN = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

export function usdcDomain(network: X402Network) {
  const n = USDC_NETWORKS[network];
  return { name: n.domainName, version: n.domainVersion, chainId: n.chainId, verifyingContract: n.usdc as Hex };
}

const loadViem = importOnce(() => import('viem'));

export const domainSeparator = async (network: X402Network): Promise<Hex> =>
  (await loadViem()).hashDomain({
    domain: { ...usdcDomain(network), chainId: BigInt(USDC_NETWORKS[network].chainId) },
    types: { EIP712Domain: EIP712_DOMAIN },
  });

/** Longest payment header read (base64 JSON); a smart wallet's signature (EIP-6492) takes most of it. */
const MAX_HEADER = 8192;
const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });
const Uint = Type.String({ pattern: '^[0-9]{1,30}$' });
/** The `exact` EVM payload: an EIP-3009 authorization and its signature (the same in v1 and v2). */
const ExactPayload = Type.Object({
  signature: Type.String({ pattern: '^0x[0-9a-fA-F]+$', maxLength: MAX_HEADER }),
  authorization: Type.Object({
    from: Address,
    to: Address,
    value: Uint,
    validAfter: Uint,
    validBefore: Uint,
    nonce: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
  }),
});
export const PaymentPayloadSchema = Type.Object({
  x402Version: Type.Literal(1),
  scheme: Type.String({ maxLength: 32 }),
  network: Type.String({ maxLength: 32 }),
  payload: ExactPayload,
});
/** A v2 requirement as the payer echoes it back in `accepted`. */
const AcceptedRequirement = Type.Object({
  scheme: Type.String({ maxLength: 32 }),
  network: Type.String({ maxLength: 64 }),
  amount: Uint,
  asset: Address,
  payTo: Address,
  maxTimeoutSeconds: Type.Number(),
  extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export const PaymentPayloadV2Schema = Type.Object({
  x402Version: Type.Literal(2),
  accepted: AcceptedRequirement,
  payload: ExactPayload,
  resource: Type.Optional(Type.Unknown()),
  extensions: Type.Optional(Type.Unknown()),
});
export type PaymentPayload = Type.Static<typeof PaymentPayloadSchema>;
export type PaymentPayloadV2 = Type.Static<typeof PaymentPayloadV2Schema>;
const checkPayload = { 1: Compile(PaymentPayloadSchema), 2: Compile(PaymentPayloadV2Schema) } as const;

/** A decoded payment of either wire version, in the terms verification uses. */
export interface Payment {
  version: 1 | 2;
  scheme: string;
  /** The v1 network name; a v2 CAIP-2 id is translated (`eip155:8453` → `base`). */
  network: string;
  payload: Type.Static<typeof ExactPayload>;
  /** v2: the requirement the payer accepted, to be matched against this request's. */
  accepted?: Type.Static<typeof AcceptedRequirement>;
  /** The payload as it was sent, which is what a facilitator settles. */
  wire: PaymentPayload | PaymentPayloadV2;
}

/** The request header that carries each version's payment. */
export const PAYMENT_HEADERS = { 1: 'X-Payment', 2: 'PAYMENT-SIGNATURE' } as const;

/** secp256k1 n / 2: USDC's ecrecover rejects signatures with a larger s, so they could never settle. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
/** Tolerated clock difference between the payer and svc, in seconds. */
export const CLOCK_SKEW_S = 30;

export type Reason =
  | 'invalid_payload'
  | 'invalid_x402_version'
  | 'invalid_scheme'
  | 'invalid_network'
  | 'invalid_payment_requirements'
  | 'invalid_exact_evm_payload_recipient_mismatch'
  | 'invalid_exact_evm_payload_authorization_value'
  | 'invalid_exact_evm_payload_authorization_valid_after'
  | 'invalid_exact_evm_payload_authorization_valid_before'
  | 'invalid_exact_evm_payload_signature'
  | 'replayed_authorization';

export class HeaderNotJson extends Error {}

/**
 * A payment header (`X-Payment` for v1, `PAYMENT-SIGNATURE` for v2): base64 JSON (what x402 clients
 * send) or raw JSON. Raw JSON is tested first because Buffer's base64 decoder turns it into garbage
 * without throwing. A value that is neither is HeaderNotJson (a 400); JSON of the wrong shape is
 * `invalid_payload` (a 402).
 */
export function decodePaymentHeader(header: string, version: 1 | 2 = 1): { ok: true; payment: Payment } | { ok: false; reason: Reason } {
  const text = header.trim();
  if (text.length > MAX_HEADER) return { ok: false, reason: 'invalid_payload' };
  const json = text.startsWith('{') ? text : Buffer.from(text, 'base64').toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new HeaderNotJson(`${PAYMENT_HEADERS[version]} is neither JSON nor base64-encoded JSON`);
  }
  if (typeof parsed === 'object' && parsed !== null && 'x402Version' in parsed && parsed.x402Version !== version)
    return { ok: false, reason: 'invalid_x402_version' };
  if (version === 1) {
    if (!checkPayload[1].Check(parsed)) return { ok: false, reason: 'invalid_payload' };
    return { ok: true, payment: { version, scheme: parsed.scheme, network: parsed.network, payload: parsed.payload, wire: parsed } };
  }
  if (!checkPayload[2].Check(parsed)) return { ok: false, reason: 'invalid_payload' };
  const { accepted } = parsed;
  return {
    ok: true,
    payment: {
      version,
      scheme: accepted.scheme,
      network: networkOfCaip2(accepted.network),
      payload: parsed.payload,
      accepted,
      wire: parsed,
    },
  };
}

export interface Expectation {
  network: X402Network;
  payTo: string;
  amount: bigint;
  maxTimeoutSeconds: number;
  nowS: number;
}

const fail = (reason: Reason) => ({ ok: false as const, reason });

/** The terms of an `exact` payment (scheme, network, recipient, amount, time window), checked locally whoever checks the signature. */
export async function checkTerms(p: Payment, expect: Expectation): Promise<{ ok: true; payer: string } | { ok: false; reason: Reason }> {
  const a = p.payload.authorization;
  if (p.scheme !== 'exact') return fail('invalid_scheme');
  if (p.network !== expect.network) return fail('invalid_network');
  const { getAddress } = await loadViem();
  if (getAddress(a.to) !== getAddress(expect.payTo)) return fail('invalid_exact_evm_payload_recipient_mismatch');
  if (BigInt(a.value) !== expect.amount) return fail('invalid_exact_evm_payload_authorization_value');
  if (BigInt(a.validAfter) > BigInt(expect.nowS)) return fail('invalid_exact_evm_payload_authorization_valid_after');
  const validBefore = BigInt(a.validBefore);
  if (validBefore < BigInt(expect.nowS + 6) || validBefore > BigInt(expect.nowS + expect.maxTimeoutSeconds + CLOCK_SKEW_S)) {
    return fail('invalid_exact_evm_payload_authorization_valid_before');
  }
  return { ok: true, payer: getAddress(a.from) };
}

/** 65 bytes: an EOA's ECDSA signature. Smart wallets sign otherwise (EIP-1271 bytes, EIP-6492 wrappers): checking those needs an RPC. */
export const isEoaSignature = (signature: string): boolean => signature.length === 132;

/** Checks an EOA signature offline (ECDSA recovery); false for any other signature. */
export async function checkEoaSignature(p: Payment, network: X402Network): Promise<boolean> {
  const a = p.payload.authorization;
  const signature = p.payload.signature as Hex;
  if (!isEoaSignature(signature)) return false;
  const { parseSignature, verifyTypedData } = await loadViem();
  try {
    // USDC's ecrecover accepts only v ∈ {27, 28} and low s; anything else could never settle.
    const v = Number.parseInt(signature.slice(130), 16);
    if ((v !== 27 && v !== 28) || BigInt(parseSignature(signature).s) > HALF_N) return false;
    return await verifyTypedData({
      address: a.from as Hex,
      domain: usdcDomain(network),
      types: AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: a.from as Hex,
        to: a.to as Hex,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce as Hex,
      },
      signature,
    });
  } catch {
    return false;
  }
}

/** Local, RPC-free verification of an EOA-signed `exact` payment (terms and signature); every failure names its reason. */
export async function verifyPayment(p: Payment, expect: Expectation): Promise<{ ok: true; payer: string } | { ok: false; reason: Reason }> {
  const terms = await checkTerms(p, expect);
  if (!terms.ok) return terms;
  return (await checkEoaSignature(p, expect.network)) ? terms : fail('invalid_exact_evm_payload_signature');
}

/** The single-use key of an authorization: `chainId:asset:from:nonce`, lower-case. */
export const authorizationKey = (p: Payment, network: X402Network): string =>
  [USDC_NETWORKS[network].chainId, USDC_NETWORKS[network].usdc, p.payload.authorization.from, p.payload.authorization.nonce]
    .join(':')
    .toLowerCase();
