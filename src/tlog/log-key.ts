import { createPrivateKey, type KeyObject } from 'node:crypto';
import { derivedSecret } from '../core/secrets.js';
import { noteSigner, privateKeyFromSeed, type NoteSigner } from '../core/signed-note.js';

/**
 * The log key signs checkpoints; it is not the receipt key. SVC_LOG_KEY gives it (an Ed25519 private key, PKCS#8 PEM
 * or base64 DER, as SVC_SIGNING_KEY). Unset, it is derived from the receipt key: the Ed25519 seed is
 * SHA-256("svc-transparency-log-key-v1" ‖ the receipt key's PKCS#8 DER), so every instance of a deployment derives
 * the same log key and nothing else needs configuring or storing.
 */
export function loadLogKey(configured: string | undefined, receiptKey: KeyObject, origin: string): NoteSigner {
  return noteSigner(origin, configured ? parseLogKey(configured) : privateKeyFromSeed(derivedSecret(receiptKey, 'transparency-log-key')));
}

function parseLogKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('SVC_LOG_KEY: must be an Ed25519 private key');
  return key;
}
