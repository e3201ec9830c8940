/** Row types of the calibration ledger, the agents' credentials and calib-pro. */
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
