import Type, { type TSchema } from 'typebox';
import { UpstreamError } from '../../upstream/errors.js';

/** Etherscan V2 wraps every answer in `{status, message, result}`; failures keep HTTP 200. */
export const Envelope = <T extends TSchema>(item: T) =>
  Type.Object({ status: Type.String(), message: Type.String(), result: Type.Union([Type.String(), Type.Array(item)]) });

export interface EnvelopeOf<T> {
  status: string;
  message: string;
  result: string | T[];
}

/**
 * The result list of an Etherscan answer. "No transactions found" (status 0, empty list) is an
 * empty history, not a failure; other status-0 answers carry their reason as a sentence.
 */
export function etherscanList<T>(raw: EnvelopeOf<T>): T[] {
  if (Array.isArray(raw.result) && (raw.status === '1' || /^no (transactions|records) found/i.test(raw.message))) return raw.result;
  const text = typeof raw.result === 'string' ? raw.result : raw.message;
  throw new UpstreamError(/rate limit/i.test(text) ? 'upstream_rate_limited' : 'upstream_error', `Etherscan: ${text}`);
}
