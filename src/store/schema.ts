import type {
  ConstitutionalHoneypotAttemptsTable,
  ConstitutionalHoneypotPatternsTable,
  ConstitutionalSelftestRunsTable,
  OlympicsAnswersTable,
  OlympicsEventsTable,
  ShieldManifestAuditsTable,
} from './schema-judges.js';
import type { InstancesTable, SigningKeysTable } from './schema-cluster.js';
import type { TlogCheckpointsTable, TlogEntriesTable, TlogHashesTable, TlogSizeTable } from './schema-tlog.js';
import type { AnswerPagesTable } from './schema-answers.js';

export type * from './schema-judges.js';
export type * from './schema-cluster.js';
export type * from './schema-tlog.js';

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
  /** Who decided the outcome: svc (a resolver, or the arena on candles) or the agent itself over HTTP; null until resolved. */
  outcome_source: OutcomeSource | null;
}

export type OutcomeSource = 'verified' | 'self_reported';

/** One per agent that ever wrote: proof of ownership for its later writes. */
export interface AgentCredentialsTable {
  agent_id: string;
  /** SHA-256 hex of the agent_key; the key itself is shown once and never stored. */
  key_hash: string;
  /** An Ed25519 public JWK (JSON) whose signatures are accepted instead of the key. */
  public_jwk: string | null;
  created_at: number;
  rotated_at: number | null;
}

/** Signatures already accepted, kept until they fall out of the timestamp window: each is usable once. */
export interface AgentSignaturesUsedTable {
  sig_hash: string;
  agent_id: string;
  /** Unix ms. */
  expires_at: number;
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

/** Claims per (agent, kind), and how many were resolved by each outcome source. */
export interface CalibKindCountsTable {
  agent_id: string;
  kind: string;
  n: number;
  verified: number;
  self_reported: number;
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
  /** live: decided on a candle that had just closed; backfill: replayed over history. */
  mode: TradeMode;
}

export type TradeMode = 'live' | 'backfill';

/** An agent on calib-pro until `pro_until` (Unix ms), with its drift-alert settings. */
export interface CalibProAgentsTable {
  agent_id: string;
  pro_until: number;
  paid_claims: number;
  webhook_url: string | null;
  ece_threshold: number | null;
  min_resolved: number | null;
  updated_at: number;
}

/** A claim recorded on calib-pro: paid with x402 (payment_ref = the authorization key) or covered by a pass. */
export interface CalibProClaimsTable {
  claim_id: string;
  agent_id: string;
  method: string;
  payment_ref: string | null;
  paid_at: number;
}

export interface CalibDriftStateTable {
  agent_id: string;
  kind: string;
  /** 1 while the kind's ECE is past the agent's threshold. */
  drifting: number;
  ece: number | null;
  checked_at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface CalibWebhookDeliveriesTable {
  id: string;
  agent_id: string;
  url: string;
  /** The exact bytes sent (and signed). */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface ArenaAttestationsTable {
  id: string;
  /** The signed attestation as served: record + `_receipt`. */
  body_json: string;
  created_at: number;
}

export type AgentSessionStatus = 'live' | 'ended' | 'expired';

export interface AgentSessionsTable {
  session_id: string;
  /** SHA-256 hex of the session token. */
  token_hash: string;
  label: string | null;
  agent_id: string | null;
  visibility: 'public' | 'unlisted';
  status: AgentSessionStatus;
  ttl_ms: number;
  /** Unix ms, like every time below. */
  created_at: number;
  /** While live: last activity + ttl. */
  expires_at: number;
  ended_at: number | null;
  delete_at: number | null;
  /** Highest event sequence number given out. */
  last_seq: number;
  /** Bytes of the screenshots posted to it (its per-session quota). */
  image_bytes: number;
}

export interface AgentSessionEventsTable {
  session_id: string;
  seq: number;
  kind: string;
  text: string;
  screenshot_sha256: string | null;
  /** Unix ms as posted by the agent. */
  ts: number;
}

export interface AgentSessionScreenshotsTable {
  sha256: string;
  mime: string;
  data_b64: string;
  created_at: number;
  /** Decoded size (the global image budget sums it). */
  bytes: number;
}

export interface PortfolioUsersTable {
  user_id: string;
  /** SHA-256 hex of the portfolio_token. */
  token_hash: string;
  created_at: number;
  plaid_item_id: string | null;
  /** The Plaid access token, AES-256-GCM sealed (portfolio/secret-box.ts). */
  plaid_token_enc: string | null;
}

export interface PortfolioSnapshotsTable {
  user_id: string;
  /** Unix ms. */
  taken_at: number;
  snapshot_json: string;
}

export interface DB {
  source_history: SourceHistoryTable;
  leases: LeasesTable;
  snapshots: SnapshotsTable;
  viral_lists: ViralListsTable;
  payment_authorizations: PaymentAuthorizationsTable;
  idempotent_requests: IdempotentRequestsTable;
  answer_pages: AnswerPagesTable;
  passes: PassesTable;
  checkout_redemptions: CheckoutRedemptionsTable;
  api_keys: ApiKeysTable;
  constitutional_honeypot_attempts: ConstitutionalHoneypotAttemptsTable;
  constitutional_honeypot_patterns: ConstitutionalHoneypotPatternsTable;
  constitutional_selftest_runs: ConstitutionalSelftestRunsTable;
  calib_claims: CalibClaimsTable;
  calib_bins: CalibBinsTable;
  calib_kind_counts: CalibKindCountsTable;
  calib_agents: CalibAgentsTable;
  agent_credentials: AgentCredentialsTable;
  agent_signatures_used: AgentSignaturesUsedTable;
  arena_trades: ArenaTradesTable;
  arena_attestations: ArenaAttestationsTable;
  calib_pro_agents: CalibProAgentsTable;
  calib_pro_claims: CalibProClaimsTable;
  calib_drift_state: CalibDriftStateTable;
  calib_webhook_deliveries: CalibWebhookDeliveriesTable;
  agent_sessions: AgentSessionsTable;
  agent_session_events: AgentSessionEventsTable;
  agent_session_screenshots: AgentSessionScreenshotsTable;
  portfolio_users: PortfolioUsersTable;
  portfolio_snapshots: PortfolioSnapshotsTable;
  shield_manifest_audits: ShieldManifestAuditsTable;
  olympics_events: OlympicsEventsTable;
  olympics_answers: OlympicsAnswersTable;
  signing_keys: SigningKeysTable;
  instances: InstancesTable;
  tlog_size: TlogSizeTable;
  tlog_entries: TlogEntriesTable;
  tlog_hashes: TlogHashesTable;
  tlog_checkpoints: TlogCheckpointsTable;
}
