/** USDC on the two x402 networks svc accepts; the EIP-712 domain name differs between them. x402 v2 names networks by CAIP-2 id. */
export const USDC_NETWORKS = {
  base: {
    chainId: 8453,
    caip2: 'eip155:8453',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    domainName: 'USD Coin',
    domainVersion: '2',
  },
  'base-sepolia': {
    chainId: 84532,
    caip2: 'eip155:84532',
    usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    domainName: 'USDC',
    domainVersion: '2',
  },
} as const;

export type X402Network = keyof typeof USDC_NETWORKS;

/** `eip155:8453` → `base`; an unknown id is returned as it is (and fails the network check). */
export const networkOfCaip2 = (caip2: string): string =>
  (Object.entries(USDC_NETWORKS) as [X402Network, (typeof USDC_NETWORKS)[X402Network]][]).find(([, n]) => n.caip2 === caip2)?.[0] ?? caip2;
