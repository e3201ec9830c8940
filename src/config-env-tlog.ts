import Type from 'typebox';

/** The transparency log's variables (issue 36, docs/transparency-log.md): part of EnvSchema (config-env.ts). */
export const TLOG_ENV = {
  SVC_LOG_ORIGIN: Type.Optional(
    Type.String({
      pattern: '^[^\\s+]+$',
      description:
        'the transparency log’s origin: first line of its checkpoints, name of its key, `log.origin` of receipts; default the host of SVC_PUBLIC_URL + `/log` (localhost/log)',
    }),
  ),
  SVC_LOG_KEY: Type.Optional(
    Type.String({
      minLength: 40,
      description:
        'Ed25519 private key that signs the log’s checkpoints, PKCS#8 PEM or base64 DER; default derived from the receipt signing key (docs/transparency-log.md)',
    }),
  ),
  SVC_LOG_CHECKPOINT_INTERVAL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 1000,
    description: 'how often new log entries are integrated and a checkpoint signed (and sent to the witnesses)',
  }),
  SVC_LOG_WITNESSES: Type.Optional(
    Type.String({
      description:
        'witnesses that cosign the log’s checkpoints, comma-separated `<witness verifier key>=<witness base URL>` (c2sp.org/tlog-witness; the key is an Ed25519 cosignature vkey, type 0x04)',
    }),
  ),
  SVC_LOG_WITNESS_QUORUM: Type.Integer({
    minimum: 0,
    default: 0,
    description: 'cosignatures a checkpoint needs before /log/checkpoint and proofs serve it (at most the number of SVC_LOG_WITNESSES)',
  }),
};
