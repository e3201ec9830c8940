/** Row types of the payment tables: x402 authorizations, idempotent paid requests, passes, checkout redemptions, API keys. */
export type AuthorizationStatus = 'reserved' | 'served' | 'pending' | 'settled' | 'settle_failed' | 'unsettled';

export interface PaymentAuthorizationsTable {
  /** `chainId:asset:from:nonce`, lower-case. */
  auth_key: string;
  payer: string;
  /** USDC atomic units. */
  amount: string;
  network: string;
  resource: string;
  request_key: string;
  bound_to_memo: number;
  status: AuthorizationStatus;
  /** Unix s. */
  valid_before: number;
  created_at: number;
  payload_json: string;
  requirements_json: string;
  settle_attempts: number;
  facilitator_json: string | null;
}

export type IdempotentState = 'running' | 'done';

/** A paid request a retry must not charge again (migration 021): its lease while it runs, its charge, then its answer. */
export interface IdempotentRequestsTable {
  /** `x402:<auth_key>` or `key:<payer scope>:<sha256 of the Idempotency-Key>`. */
  key: string;
  /** What was asked (method, URL, canonical body): the same key on another request is refused. */
  request_key: string;
  /** Who asked, hashed (the rate limiter's subject): spend is summed per caller. */
  caller: string;
  /** The run holding the lease. */
  owner: string;
  /** Unix ms; past it another run may take the request over (its owner died). */
  lease_until: number;
  state: IdempotentState;
  charge_method: string | null;
  /** The authorization key, or the pass hash, that paid. */
  charge_ref: string | null;
  /** USDC atomic units charged ('0' when a pass paid). */
  charge_amount: string | null;
  /** Unix ms; set once, when the charge is recorded. */
  charged_at: number | null;
  settle_headers_json: string | null;
  response_json: string | null;
  created_at: number;
  /** Unix ms: created_at + 24 h. */
  expires_at: number;
}

export interface PassesTable {
  token_hash: string;
  kind: 'day' | 'week';
  /** What paid for it: `x402:<auth_key>` or `checkout:<session_id>`. */
  origin: string;
  created_at: number;
  expires_at: number;
}

export interface CheckoutRedemptionsTable {
  session_id: string;
  pass_token_hash: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  name: string;
  tier: 'standard' | 'pro';
  created_at: number;
  revoked_at: number | null;
}
