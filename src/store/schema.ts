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
import type {
  ApiKeysTable,
  CheckoutRedemptionsTable,
  IdempotentRequestsTable,
  PassesTable,
  PaymentAuthorizationsTable,
} from './schema-payments.js';
import type {
  AgentCredentialsTable,
  AgentSignaturesUsedTable,
  CalibAgentsTable,
  CalibBinsTable,
  CalibClaimsTable,
  CalibDriftStateTable,
  CalibKindCountsTable,
  CalibProAgentsTable,
  CalibProClaimsTable,
  CalibWebhookDeliveriesTable,
} from './schema-calib.js';
import type { AgentSessionEventsTable, AgentSessionScreenshotsTable, AgentSessionsTable } from './schema-sessions.js';

export type * from './schema-judges.js';
export type * from './schema-cluster.js';
export type * from './schema-tlog.js';
export type * from './schema-payments.js';
export type * from './schema-calib.js';
export type * from './schema-sessions.js';

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

export interface ArenaAttestationsTable {
  id: string;
  /** The signed attestation as served: record + `_receipt`. */
  body_json: string;
  created_at: number;
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
