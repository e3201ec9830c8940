import { discoveryOf } from '../payments/bazaar.js';
import { USDC_NETWORKS } from '../payments/networks.js';
import { BUNDLE_TIERS, PRICES, singleQueryPrice } from '../payments/pricing.js';
import { ATTRIBUTION, type DiscoveryInput } from './content.js';

/** Where each x402 version carries the challenge, the payment and the settlement result. */
const X402_HEADERS = {
  v1: { challenge: 'response body (x402Version 1, accepts[])', payment: 'X-PAYMENT', response: 'X-PAYMENT-RESPONSE' },
  v2: { challenge: 'PAYMENT-REQUIRED', payment: 'PAYMENT-SIGNATURE', response: 'PAYMENT-RESPONSE' },
} as const;

/** svc's payment descriptor: x402 v1 and v2, the CAIP-2 network, the asset, both header sets and every price. */
export function x402Descriptor({ baseUrl, x402 }: DiscoveryInput) {
  const network = USDC_NETWORKS[x402.network];
  return {
    x402Version: 2,
    x402Versions: [1, 2],
    protocol: 'x402',
    scheme: 'exact',
    networks: [network.caip2],
    network_names: { [network.caip2]: x402.network },
    asset: {
      symbol: 'USDC',
      decimals: 6,
      address: network.usdc,
      eip712: { name: network.domainName, version: network.domainVersion },
    },
    pay_to: x402.payTo,
    headers: X402_HEADERS,
    extensions: ['bazaar'],
    discovery: `${baseUrl}/.well-known/x402`,
    endpoints: [
      {
        method: 'POST',
        resource: `${baseUrl}/api/data/bundle`,
        tiers: BUNDLE_TIERS.map((t) => ({ max_queries: t.maxQueries, amount: t.price.toString() })),
      },
      { method: 'GET', resource: `${baseUrl}/api/v1/backtest`, query: { tier: 'paid' }, amount: PRICES.backtest.toString() },
      { method: 'GET', resource: `${baseUrl}/api/v1/agent-context`, query: { tier: 'paid' }, amount: PRICES.agentContext.toString() },
      {
        method: 'POST',
        resource: `${baseUrl}/api/v1/calib/record_claim`,
        query: { product: 'calib-pro' },
        amount: PRICES.calibProClaim.toString(),
      },
      { method: 'POST', resource: `${baseUrl}/api/v1/pass/day`, amount: PRICES.dayPass.toString() },
      { method: 'POST', resource: `${baseUrl}/api/v1/pass/week`, amount: PRICES.weekPass.toString() },
    ],
    per_call_amount: singleQueryPrice().toString(),
    license: ATTRIBUTION,
  };
}

/**
 * `/.well-known/x402`, the fan-out document x402 indexers (x402scan) read: every paid resource,
 * each GET with the example query of its OpenAPI operation, so probing the URL answers the 402.
 */
export function x402WellKnown({ baseUrl, openapi }: DiscoveryInput) {
  const resources = Object.entries(openapi.paths).flatMap(([path, ops]) =>
    Object.keys(ops).flatMap((method) => {
      const discovery = discoveryOf(openapi, method, path);
      if (!discovery) return [];
      const query = discovery.bazaar.info.input.queryParams as Record<string, unknown> | undefined;
      const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
      return [`${baseUrl}${path}${search}`];
    }),
  );
  return {
    version: 1,
    resources,
    instructions: `Paid calls answer 402 with an x402 challenge (v1 in the body, v2 in PAYMENT-REQUIRED, with extensions.bazaar). Payment descriptor: ${baseUrl}/.well-known/x402.json. API: ${baseUrl}/openapi.json. ${ATTRIBUTION}`,
  };
}
