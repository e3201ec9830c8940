import { canonicalJson } from './canonical-json.js';
import type { SigningKey } from './signing-keys.js';
import { signReceipt, type Receipt } from './receipt.js';

/** The transparency log as signers see it: its origin, and appends that build their entry once the index is known. */
export interface ReceiptLog {
  readonly origin: string;
  append<T>(build: (index: number) => { entry: string; value: T }): Promise<T>;
}

export type UnsignedReceipt = Omit<Receipt, 'sig' | 'kid' | 'v' | 'log'>;

/**
 * Signs a receipt that carries its own place in the log: the index is taken first, the receipt signed with it, and
 * the entry is the signed receipt's RFC 8785 canonical JSON. Resolves once the entry is committed.
 */
export const signLoggedReceipt = (key: SigningKey, log: ReceiptLog, unsigned: UnsignedReceipt): Promise<Receipt> =>
  log.append((index) => {
    const receipt = signReceipt(key, { ...unsigned, log: { origin: log.origin, index } });
    return { entry: canonicalJson(receipt), value: receipt };
  });
