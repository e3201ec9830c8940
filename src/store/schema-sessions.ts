/** Row types of the live agent sessions: sessions, their events and their screenshots. */
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
