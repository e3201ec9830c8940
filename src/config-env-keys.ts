import Type from 'typebox';
import { TLOG_ENV } from './config-env-tlog.js';

/**
 * The receipt signing keys, then the transparency log's settings: part of EnvSchema (config-env.ts), in their place
 * in docs/configuration.md.
 */
export const SIGNING_KEY_ENV = {
  SVC_SIGNING_KEY: Type.Optional(
    Type.String({
      minLength: 40,
      description:
        'Ed25519 private key that signs receipts, PKCS#8 PEM or base64 DER; generate one with `openssl genpkey -algorithm ed25519 -outform DER | openssl base64 -A`. ' +
        'Required with DATABASE_URL (every instance gives the same one); unset on SQLite, a key is kept in SVC_DATA_DIR. Changing it: the rotation in docs/operations.md',
    }),
  ),
  SVC_SIGNING_KEYS_PREVIOUS: Type.Optional(
    Type.String({
      description:
        'earlier signing keys, comma-separated, public (SPKI, as /.well-known/svc-receipt-pubkey.json gives it) or private, PEM or base64 DER: ' +
        'published in that document’s keys[] so receipts they signed keep verifying; the cluster’s current key listed here lets a new SVC_SIGNING_KEY take over (docs/operations.md)',
    }),
  ),
  ...TLOG_ENV,
};
