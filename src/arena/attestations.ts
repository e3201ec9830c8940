import { createHash } from 'node:crypto';

/**
 * The spec's formula: the first 24 hex characters of SHA-256 over `<strategy>|<asset>|<entry_ts>|enter`
 * (UTF-8, entry_ts in Unix ms as a decimal integer). A trade's exit attestation hashes the same string
 * with `|exit`, so both ids follow from the entry alone.
 */
export const attestationId = (strategy: string, asset: string, entryTs: number, event: 'enter' | 'exit'): string =>
  createHash('sha256').update(`${strategy}|${asset}|${entryTs}|${event}`).digest('hex').slice(0, 24);

/** How an attestation is cited in records: `arena-att:<id>`. */
export const attestationRef = (id: string): string => `arena-att:${id}`;

export const ATTESTATION_FORMULA =
  'id = first 24 hex characters of SHA-256("<strategy>|<asset>|<entry_ts>|enter"), entry_ts in Unix ms; the exit attestation uses "|exit"';
