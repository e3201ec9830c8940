import ipaddr from 'ipaddr.js';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { HOSTS, hostEnvName, type HostName } from './upstream/hosts.js';
import { legacyModel, parseModels, type ModelSpec } from './config-models.js';
import type { FacilitatorAuth } from './payments/facilitator.js';
import type { Env } from './config-env.js';
import type { Config, UpstreamSetting } from './config.js';

/**
 * The readers of loadConfig that check more than one variable's schema can: each adds what is wrong to `problems`
 * (one line per problem, naming the variable) and returns what it read.
 */

const isAddressOrCidr = (text: string) => ipaddr.isValid(text) || (text.includes('/') && ipaddr.isValidCIDR(text));

const isUrl = (s: string) => /^https?:\/\/[^\s]+$/.test(s);

/** Every upstream host's base URL (UPSTREAM_<HOST>_URL, else the built-in one) and key. */
export function readUpstreams(env: NodeJS.ProcessEnv, problems: string[]): Record<HostName, UpstreamSetting> {
  const entries = Object.entries(HOSTS).map(([name, host]) => {
    const urlVar = hostEnvName(name, 'URL');
    const baseUrl = env[urlVar] ?? host.baseUrl;
    if (!isUrl(baseUrl)) problems.push(`${urlVar}: must be an http(s) URL (got "${baseUrl}")`);
    const key = env[hostEnvName(name, 'KEY')] || undefined;
    return [name, { baseUrl: baseUrl.replace(/\/+$/, ''), ...(key ? { key } : {}) }] as const;
  });
  return Object.fromEntries(entries) as Record<HostName, UpstreamSetting>;
}

/** The process and its server: trusted proxies, timeouts, the ports fetches may reach, the worker count. */
export function readProcessRules(parsed: Env, problems: string[]): { workers: number; fetchAllowedPorts: number[] } {
  for (const entry of parsed.SVC_TRUST_PROXY?.includes('.') || parsed.SVC_TRUST_PROXY?.includes(':')
    ? parsed.SVC_TRUST_PROXY.split(',')
    : []) {
    if (!isAddressOrCidr(entry.trim())) problems.push(`SVC_TRUST_PROXY: "${entry.trim()}" is neither an IP address nor a CIDR range`);
  }
  if (parsed.SVC_HEADERS_TIMEOUT_MS > parsed.SVC_REQUEST_TIMEOUT_MS) {
    problems.push(`SVC_HEADERS_TIMEOUT_MS: must not exceed SVC_REQUEST_TIMEOUT_MS (${parsed.SVC_REQUEST_TIMEOUT_MS})`);
  }
  const fetchAllowedPorts = parsed.SVC_FETCH_ALLOWED_PORTS.split(',').map(Number);
  if (fetchAllowedPorts.some((port) => port < 1 || port > 65535))
    problems.push(`SVC_FETCH_ALLOWED_PORTS: ports are 1 to 65535 (got "${parsed.SVC_FETCH_ALLOWED_PORTS}")`);
  const workers = parsed.SVC_WORKERS === 'auto' ? availableParallelism() : Number(parsed.SVC_WORKERS);
  if (workers > 1 && !parsed.REDIS_URL)
    problems.push(
      `SVC_WORKERS: ${workers} processes need REDIS_URL: each receives the events of its own streams over the Redis bus (set REDIS_URL or SVC_WORKERS=1)`,
    );
  return { workers, fetchAllowedPorts };
}

/** Settling or verifying payments anywhere but locally needs a facilitator. */
export function checkFacilitatorNeeded(parsed: Env, problems: string[]): void {
  if (parsed.PAYMENT_SETTLE !== 'off' && !parsed.X402_FACILITATOR_URL)
    problems.push(`PAYMENT_SETTLE: "${parsed.PAYMENT_SETTLE}" needs X402_FACILITATOR_URL`);
  if (parsed.PAYMENT_VERIFY !== 'local' && !parsed.X402_FACILITATOR_URL)
    problems.push(`PAYMENT_VERIFY: "${parsed.PAYMENT_VERIFY}" needs X402_FACILITATOR_URL`);
}

/** Settled payments must not go to the zero address (the default, fine while nothing is settled). */
export function checkPayTo(parsed: Env, problems: string[]): void {
  if (parsed.PAYMENT_SETTLE !== 'off' && /^0x0{40}$/.test(parsed.SVC_PAY_TO)) {
    problems.push(`SVC_PAY_TO: PAYMENT_SETTLE="${parsed.PAYMENT_SETTLE}" would settle payments to the zero address; set your USDC address`);
  }
}

/** SVC_SECRET_KEY, then the former keys of SVC_SECRET_KEY_PREVIOUS. */
export function readSecretKeys(parsed: Env, problems: string[]): Buffer[] {
  return [parsed.SVC_SECRET_KEY, ...(parsed.SVC_SECRET_KEY_PREVIOUS ?? '').split(',')].flatMap((k) =>
    k?.trim() ? [readSecretKey(k.trim(), problems)] : [],
  );
}

/** SVC_MODELS inline (starts with `[`) or from a file; without it, the legacy UPSTREAM_LLM_* model. */
export function readModels(parsed: Env, env: NodeJS.ProcessEnv, llm: UpstreamSetting, problems: string[]): ModelSpec[] {
  const source = parsed.SVC_MODELS?.trim();
  if (!source) return legacyModel(llm, parsed.SVC_LLM_MODEL);
  let text = source;
  if (!source.startsWith('[')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (e) {
      problems.push(`SVC_MODELS: cannot read the file "${source}" (${(e as Error).message})`);
      return [];
    }
  }
  const result = parseModels(text, env);
  problems.push(...result.problems);
  return result.models;
}

function readSecretKey(text: string, problems: string[]): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) problems.push(`SVC_SECRET_KEY: must be 32 bytes as 64 hex digits or base64 (got ${key.length} bytes)`);
  return key;
}

const PLAID_HOSTS = { sandbox: 'https://sandbox.plaid.com', production: 'https://production.plaid.com' } as const;

export function readPlaid(parsed: Env, secretKeys: Buffer[], problems: string[]): Config['plaid'] {
  const { PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret } = parsed;
  if (!clientId && !secret) return undefined;
  if (!clientId || !secret) problems.push('PLAID_CLIENT_ID and PLAID_SECRET: set both or neither');
  if (secretKeys.length === 0) problems.push('SVC_SECRET_KEY: required with PLAID_CLIENT_ID (Plaid access tokens are stored encrypted)');
  return clientId && secret
    ? { clientId, secret, baseUrl: (parsed.PLAID_BASE_URL ?? PLAID_HOSTS[parsed.PLAID_ENV]).replace(/\/+$/, '') }
    : undefined;
}

/** The facilitator auth mode with the secrets it needs; a missing secret is a problem named by its variable. */
export function readFacilitatorAuth(parsed: Env, problems: string[]): FacilitatorAuth {
  switch (parsed.X402_FACILITATOR_AUTH) {
    case 'none':
      return { kind: 'none' };
    case 'bearer':
      if (!parsed.X402_FACILITATOR_TOKEN) problems.push('X402_FACILITATOR_TOKEN: required by X402_FACILITATOR_AUTH=bearer');
      return { kind: 'bearer', token: parsed.X402_FACILITATOR_TOKEN ?? '' };
    case 'cdp':
      if (!parsed.CDP_API_KEY_ID || !parsed.CDP_API_KEY_SECRET)
        problems.push('CDP_API_KEY_ID, CDP_API_KEY_SECRET: both required by X402_FACILITATOR_AUTH=cdp');
      return { kind: 'cdp', keyId: parsed.CDP_API_KEY_ID ?? '', keySecret: parsed.CDP_API_KEY_SECRET ?? '' };
  }
}
