/** The signing keys a cluster has used: one current (retired_at null), the earlier ones retired by a rotation. */
export interface SigningKeysTable {
  kid: string;
  /** DER SubjectPublicKeyInfo, base64url. */
  spki: string;
  /** Unix ms. */
  registered_at: number;
  /** Unix ms; null for the current key. */
  retired_at: number | null;
  /** 1 for the current key, null for retired ones (unique: one current key). */
  current: 1 | null;
}

/** One row per running instance, refreshed every few seconds: an instance is live while its heartbeat is fresh. */
export interface InstancesTable {
  id: string;
  /** The kid of the key it signs with. */
  kid: string;
  /** 1 when it has REDIS_URL (its session events reach the other instances' watchers). */
  redis: number;
  version: string;
  /** Hostname and process id, for an operator reading the doctor. */
  host: string;
  pid: number;
  /** Unix ms. */
  started_at: number;
  /** Unix ms of the last heartbeat. */
  heartbeat_at: number;
  /** Heartbeats so far: a starting instance tells a live one from a dead one's row by whether this moves. */
  beats: number;
}
