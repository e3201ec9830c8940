/** The transparency log's sequence: one row (id 1), locked by every append so indexes are consecutive and never reused. */
export interface TlogSizeTable {
  id: number;
  /** Entries appended (indexes 0 … size-1 exist). */
  size: number;
}

/** One row per logged receipt: its RFC 8785 canonical JSON, the entry's bytes as UTF-8. */
export interface TlogEntriesTable {
  idx: number;
  entry: string;
}

/** The Merkle hashes at golang.org/x/mod/sumdb/tlog's stored-hash indexes (about two per entry), written by integration. */
export interface TlogHashesTable {
  idx: number;
  hash: Buffer;
}

/** Every checkpoint the log signed, by size; `cosignatures` holds the witnesses' signature lines, one a line. */
export interface TlogCheckpointsTable {
  size: number;
  /** The signed note as the log signed it (body, blank line, the log's signature line). */
  note: string;
  /** Unix ms of signing. */
  signed_at: number;
  cosignatures: string;
}
