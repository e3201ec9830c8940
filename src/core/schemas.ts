import Type from 'typebox';

/** Schemas shared by many routes; each appears once in the OpenAPI document. */

export const ReceiptSchema = Type.Object(
  {
    v: Type.Integer({ description: 'receipt format version, 1' }),
    request_hash: Type.String({ description: 'sha256-<base64url> of the canonical request' }),
    response_hash: Type.String({ description: 'sha256-<base64url> of the canonical response body without _receipt' }),
    as_of: Type.Integer({ description: 'Unix seconds of the data' }),
    issued_at: Type.Integer({ description: 'Unix seconds of signing' }),
    sources: Type.Array(Type.String()),
    issuer: Type.String(),
    kid: Type.String({ description: 'RFC 7638 thumbprint of the signing key' }),
    sig: Type.String({ description: 'ed25519-<base64url>' }),
  },
  { description: 'Ed25519 receipt; see the API description for the signing input' },
);

export const ErrorSchema = Type.Object({
  error: Type.String({ description: 'snake_case error code' }),
  message: Type.String(),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  request_id: Type.Optional(Type.String()),
});

/** A normalized data row: snake_case fields plus `source` and `as_of`. */
export const RowSchema = Type.Object({}, { additionalProperties: true, description: 'normalized row; always has source and as_of' });

export const FreeFlag = Type.Optional(Type.Unsafe<'1'>({ type: 'string', enum: ['1'], description: 'free preview; the only allowed value is 1' }));

/** The 402 body: the seed's invoice fields plus the standard x402 v1 `x402Version` and `accepts[]`. */
export const PaymentChallengeSchema = Type.Object(
  {
    error: Type.String({ description: 'payment_required' }),
    message: Type.String(),
    protocol: Type.String({ description: 'x402' }),
    invoice: Type.Object({
      amount: Type.String({ description: 'USDC atomic units (6 decimals)' }),
      asset: Type.String(),
      chain: Type.String(),
      recipient: Type.String(),
      memo: Type.String({ description: '32-byte hex tied to this request' }),
      expires: Type.String({ description: 'ISO 8601' }),
    }),
    x402Version: Type.Integer(),
    accepts: Type.Array(Type.Object({}, { additionalProperties: true, description: 'x402 v1 PaymentRequirements' })),
  },
  { additionalProperties: true },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, s === 402 ? PaymentChallengeSchema : ErrorSchema]));

/** A free-form JSON object (OpenAPI 3.0 has no patternProperties, so not Type.Record). */
export const FreeObject = (description = 'free-form object') => Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });

/** A string enum as OpenAPI 3.0 spells it. */
export const StringEnum = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
