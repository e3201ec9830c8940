/** USDC on the two x402 networks svc accepts; the EIP-712 domain name differs between them. */
export const USDC_NETWORKS = {
  base: { chainId: 8453, usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', domainName: 'USD Coin', domainVersion: '2' },
  'base-sepolia': { chainId: 84532, usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', domainName: 'USDC', domainVersion: '2' },
} as const;

export type X402Network = keyof typeof USDC_NETWORKS;
