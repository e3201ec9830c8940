import type { TokenSecurity } from '../../src/sources/lib/goplus.js';

/** A GoPlus token_security answer with every risk flag clear (GoPlus sends flags as '0'/'1' strings). */
export const CLEAN_GOPLUS_FLAGS: TokenSecurity = {
  is_open_source: '1',
  is_proxy: '0',
  is_mintable: '0',
  is_honeypot: '0',
  cannot_buy: '0',
  cannot_sell_all: '0',
  slippage_modifiable: '0',
  personal_slippage_modifiable: '0',
  trading_cooldown: '0',
  transfer_pausable: '0',
  is_blacklisted: '0',
  hidden_owner: '0',
  can_take_back_ownership: '0',
  owner_change_balance: '0',
  selfdestruct: '0',
  external_call: '0',
  is_airdrop_scam: '0',
  honeypot_with_same_creator: '0',
  buy_tax: '0',
  sell_tax: '0',
};
