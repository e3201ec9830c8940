import Type from 'typebox';
import type { HostHttp } from '../../upstream/client.js';
import { noData, UpstreamError } from '../../upstream/errors.js';
import type { EvmTarget } from './evm-chains.js';

const Flag = Type.Optional(Type.String());
const Holder = Type.Object({ percent: Type.String(), is_locked: Type.Optional(Type.Number()) });

/** GoPlus sends every flag as "0"/"1" text; a missing key means the check is unknown, not passed. */
const TokenSecurity = Type.Object({
  token_name: Flag,
  token_symbol: Flag,
  holder_count: Flag,
  owner_address: Flag,
  creator_address: Flag,
  is_open_source: Flag,
  is_proxy: Flag,
  is_mintable: Flag,
  is_honeypot: Flag,
  cannot_buy: Flag,
  cannot_sell_all: Flag,
  slippage_modifiable: Flag,
  personal_slippage_modifiable: Flag,
  trading_cooldown: Flag,
  transfer_pausable: Flag,
  is_blacklisted: Flag,
  hidden_owner: Flag,
  can_take_back_ownership: Flag,
  owner_change_balance: Flag,
  selfdestruct: Flag,
  external_call: Flag,
  is_airdrop_scam: Flag,
  honeypot_with_same_creator: Flag,
  buy_tax: Flag,
  sell_tax: Flag,
  dex: Type.Optional(Type.Array(Type.Object({ name: Type.String(), liquidity: Type.String() }))),
  holders: Type.Optional(Type.Array(Holder)),
  lp_holders: Type.Optional(Type.Array(Holder)),
});
export type TokenSecurity = Type.Static<typeof TokenSecurity>;
const Response = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  result: Type.Union([Type.Record(Type.String(), TokenSecurity), Type.Null()]),
});

/** GoPlus flag → our risk name, for flags where "1" is the risk. */
const RISK_FLAGS = {
  is_honeypot: 'honeypot',
  is_airdrop_scam: 'airdrop_scam',
  cannot_sell_all: 'cannot_sell_all',
  cannot_buy: 'cannot_buy',
  owner_change_balance: 'owner_change_balance',
  honeypot_with_same_creator: 'creator_made_honeypots',
  hidden_owner: 'hidden_owner',
  can_take_back_ownership: 'can_take_back_ownership',
  selfdestruct: 'selfdestruct',
  slippage_modifiable: 'modifiable_tax',
  personal_slippage_modifiable: 'per_address_tax',
  is_mintable: 'mintable',
  transfer_pausable: 'pausable',
  is_blacklisted: 'blacklist',
  is_proxy: 'proxy',
  external_call: 'external_call',
  trading_cooldown: 'trading_cooldown',
} as const satisfies Partial<Record<keyof TokenSecurity, string>>;
/** Every risk GoPlus can answer for a token. */
export const TOKEN_CHECKS: readonly string[] = [...Object.values(RISK_FLAGS), 'unverified_source', 'high_tax'];
/** Buy or sell tax above this fraction is a risk of its own. */
const HIGH_TAX = 0.1;

export const flag = (value: string | undefined): boolean | null => (value === '1' ? true : value === '0' ? false : null);

/** Risks found, and the checks GoPlus could not answer. */
export function goplusRisks(t: TokenSecurity): { risks: string[]; unknown_checks: string[] } {
  const checks = Object.entries(RISK_FLAGS) as [keyof typeof RISK_FLAGS, string][];
  const risks = checks.filter(([key]) => flag(t[key]) === true).map(([, risk]) => risk);
  const unknown = checks.filter(([key]) => flag(t[key]) === null).map(([, risk]) => risk);
  if (flag(t.is_open_source) === false) risks.push('unverified_source');
  if (flag(t.is_open_source) === null) unknown.push('unverified_source');
  if (Math.max(Number(t.buy_tax || 0), Number(t.sell_tax || 0)) > HIGH_TAX) risks.push('high_tax');
  if (!t.buy_tax && !t.sell_tax) unknown.push('high_tax');
  return { risks, unknown_checks: unknown };
}

/**
 * One token's GoPlus report. Unauthenticated calls answer only the first address, so one per call;
 * the result is keyed by the lower-cased address and is `{}` for a token GoPlus does not know.
 */
export async function goplusToken(http: HostHttp, { chainId, address }: EvmTarget, deadline: number): Promise<TokenSecurity> {
  const query = { contract_addresses: address };
  const raw = await http.json<Type.Static<typeof Response>>(`/api/v1/token_security/${chainId}`, Response, { deadline, query });
  if (raw.code === 4029) throw new UpstreamError('upstream_rate_limited', `GoPlus: ${raw.message}`);
  if (raw.code !== 1 && raw.code !== 2) throw new UpstreamError('upstream_error', `GoPlus: code ${raw.code} ${raw.message}`);
  const token = raw.result?.[address];
  if (!token) throw noData(`GoPlus has no security report for ${address}`);
  return token;
}
