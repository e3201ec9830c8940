import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { canonicalJson } from '../core/canonical-json.js';
import { verifyReceipt, type Receipt } from '../core/receipt.js';

const VerifyBody = Type.Object({
  receipt: Type.Unknown({
    description: 'the `_receipt` object (schema Receipt); any other value answers `{valid: false, reason: "malformed"}`',
  }),
  response: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'the whole response body the receipt came with' })),
});

const VerifyAnswer = Type.Object({
  valid: Type.Boolean(),
  kid: Type.Optional(Type.String()),
  issued_at: Type.Optional(Type.Integer()),
  as_of: Type.Optional(Type.Integer()),
  source_mode: Type.Optional(
    Type.Union([Type.Literal('demo'), Type.Literal('live')], {
      description: '`demo` when the signed receipt says the answer came from the demo simulator (SVC_DEMO=1), else `live`',
    }),
  ),
  reason: Type.Optional(
    Type.String({
      description: 'when invalid: malformed, unsupported_version, unknown_kid, bad_signature or response_mismatch',
    }),
  ),
  log: Type.Optional(
    Type.Object(
      {
        status: Type.Union([Type.Literal('included'), Type.Literal('pending'), Type.Literal('not_included'), Type.Literal('other_log')], {
          description:
            'included: the receipt is the entry at its log.index under the published checkpoint (Merkle inclusion proof checked); ' +
            'pending: its index is past that checkpoint (try after the next); not_included: another entry is there; other_log: another origin',
        }),
        checkpoint_size: Type.Optional(Type.Integer({ description: 'the size of the checkpoint checked against' })),
      },
      { description: 'for a valid receipt that carries `log`: its inclusion in svc’s transparency log' },
    ),
  ),
});

const PublicKeys = Type.Object({
  kid: Type.String(),
  alg: Type.String(),
  crv: Type.String(),
  spki: Type.String({ description: 'DER SubjectPublicKeyInfo, base64url' }),
  jwk: Type.Object({
    kty: Type.String(),
    crv: Type.String(),
    x: Type.String(),
    kid: Type.String(),
    alg: Type.String(),
    use: Type.String(),
  }),
  keys: Type.Array(Type.Object({}, { additionalProperties: true, description: 'a JWK like `jwk`' }), {
    description:
      'JWKS form, for JOSE libraries: the signing key (`jwk`) first, then the earlier keys kept through a rotation ' +
      '(SVC_SIGNING_KEYS_PREVIOUS); pick the key by the receipt’s `kid`',
  }),
});

/** Receipts: verifying one, and the published keys that sign them. */
export const receiptRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const key = deps.signingKey;
    // The signing key first: a JOSE library picking the first usable key of keys[] picks the one that signs now.
    const keys = [key, ...deps.previousKeys];

    app.post(
      '/api/v1/receipt/verify',
      {
        schema: {
          tags: ['receipts'],
          summary: 'Verify a receipt (and optionally the response it came with)',
          description:
            'Checks form, version, key id and the Ed25519 signature; with `response` also checks `response_hash` against that body (its `_receipt` is ignored). ' +
            'A receipt signed by an earlier key kept in SVC_SIGNING_KEYS_PREVIOUS (a rotation) verifies too. ' +
            'Reasons: malformed, unsupported_version, unknown_kid, bad_signature, response_mismatch. A valid receipt reports its signed ' +
            '`source_mode`: `demo` for answers of the demo simulator, which never vouch for live data. A valid receipt that carries `log` ' +
            'is also checked for inclusion in the transparency log against the published checkpoint: `log.status` says the outcome.',
          body: VerifyBody,
          response: {
            200: VerifyAnswer,
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const outcome = verifyReceipt(keys, request.body.receipt, request.body.response as Record<string, unknown> | undefined);
        const receipt = request.body.receipt as Receipt;
        if (!outcome.valid || !receipt.log) return outcome;
        return { ...outcome, log: await deps.tlog.inclusion(canonicalJson(receipt), receipt.log) };
      },
    );

    app.get(
      '/.well-known/svc-receipt-pubkey.json',
      {
        schema: {
          tags: ['receipts'],
          summary: 'The receipt signing key (SPKI and JWK), and in keys[] the earlier keys whose receipts still verify',
          response: { 200: PublicKeys },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=3600');
        return { kid: key.kid, alg: 'EdDSA', crv: 'Ed25519', spki: key.spki, jwk: key.jwk, keys: keys.map((k) => k.jwk) };
      },
    );
  };
