/** Tables of the features that judge: the model olympics, the constitutional classifier, AgentShield. */
export type OlympicsMode = 'live' | 'backfill';
export type OlympicsEventStatus = 'open' | 'resolved' | 'void';
export type OlympicsAnswerStatus = 'answered' | 'failed' | 'timed_out';
export type Medal = 'gold' | 'silver' | 'bronze';

export interface OlympicsEventsTable {
  id: string;
  discipline: string;
  template: string;
  mode: OlympicsMode;
  question: string;
  /** The fetched data every model saw, each item with its signed receipt (JSON array). */
  data_json: string;
  /** `{type, config}` of the outcome resolver. */
  resolver_json: string;
  /** Unix ms: when the question was put (for backfill, the historical moment it is asked at). */
  opened_at: number;
  /** Unix s: when the outcome is read. */
  resolves_at: number;
  status: OlympicsEventStatus;
  outcome: 0 | 1 | null;
  evidence_json: string | null;
  /** Unix ms. */
  resolved_at: number | null;
}

export interface OlympicsAnswersTable {
  event_id: string;
  model_id: string;
  vendor: string;
  model: string;
  status: OlympicsAnswerStatus;
  /** The model's probability that the statement is true; null when it did not answer. */
  p: number | null;
  rationale: string | null;
  /** Why there is no answer (the model layer's message). */
  reason: string | null;
  claim_id: string | null;
  /** Unix ms. */
  answered_at: number;
  /** Set when the event resolves (failed answers score as p = 0.5). */
  brier: number | null;
  medal: Medal | null;
}

export interface ConstitutionalHoneypotAttemptsTable {
  id: string;
  /** SHA-256 of the message: repeats are countable, the text is never kept. */
  text_hash: string;
  p_harmful: number;
  verdict: 'allow' | 'flag' | 'block';
  canary_would_leak: 0 | 1;
  created_at: number;
}

export interface ConstitutionalHoneypotPatternsTable {
  attempt_id: string;
  pattern_id: string;
}

export interface ConstitutionalSelftestRunsTable {
  id: string;
  ran_at: number;
  report_json: string;
}

export interface ShieldManifestAuditsTable {
  url: string;
  /** Unix ms. */
  audited_at: number;
  manifest_sha256: string;
  /** {tool name: hex SHA-256 of its canonical definition}. */
  tool_hashes_json: string;
}
