/**
 * Row types of every table. Portable column types only: text, integer, real; JSON as text;
 * booleans 0/1; times as integer Unix ms unless the column name says `_s`.
 */
export interface SourceHistoryTable {
  type: string;
  q: string;
  /** Unix seconds of the data. */
  as_of: number;
  /** Unix ms when svc fetched it. */
  fetched_at: number;
  source: string;
  rows_hash: string;
  rows_json: string;
}

export interface LeasesTable {
  name: string;
  holder: string;
  /** Unix ms. */
  expires_at: number;
}

export interface SnapshotsTable {
  /** Unix ms. */
  taken_at: number;
  data_json: string;
}

export interface ViralListsTable {
  niche: string;
  /** Unix ms. */
  fetched_at: number;
  /** UTC day, YYYY-MM-DD. */
  date: string;
  source: string;
  top5_json: string;
}

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
  /** The answer, kept so a retry after a lost response gets it again. */
  response_json: string | null;
  settle_attempts: number;
  facilitator_json: string | null;
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

export type ClaimStatus = 'unresolved' | 'resolved' | 'expired';

export interface CalibClaimsTable {
  claim_id: string;
  agent_id: string;
  kind: string;
  predicted_p: number;
  payload_json: string;
  resolver_json: string;
  created_at: number;
  /** Unix s. */
  expected_resolution_at: number;
  status: ClaimStatus;
  outcome: number | null;
  evidence_json: string | null;
  resolved_at: number | null;
}

export interface CalibBinsTable {
  agent_id: string;
  kind: string;
  bin_index: number;
  count: number;
  success_count: number;
  sum_p: number;
  /** Σ (p − outcome)², for the Brier score. */
  sum_sq_err: number;
}

export interface CalibAgentsTable {
  agent_id: string;
  name: string;
  homepage: string | null;
  public_key: string | null;
  registered_at: number;
}

export interface ArenaTradesTable {
  strategy: string;
  asset: string;
  /** Unix ms. */
  entry_ts: number;
  entry_price: number;
  predicted_p: number;
  signals_lit_json: string;
  claim_id: string | null;
  exit_ts: number | null;
  exit_price: number | null;
  exit_reason: string | null;
  pnl_pct: number | null;
}

export interface ArenaAttestationsTable {
  id: string;
  /** The signed attestation as served: record + `_receipt`. */
  body_json: string;
  created_at: number;
}

export interface DB {
  source_history: SourceHistoryTable;
  leases: LeasesTable;
  snapshots: SnapshotsTable;
  viral_lists: ViralListsTable;
  payment_authorizations: PaymentAuthorizationsTable;
  passes: PassesTable;
  checkout_redemptions: CheckoutRedemptionsTable;
  api_keys: ApiKeysTable;
  calib_claims: CalibClaimsTable;
  calib_bins: CalibBinsTable;
  calib_agents: CalibAgentsTable;
  arena_trades: ArenaTradesTable;
  arena_attestations: ArenaAttestationsTable;
}
