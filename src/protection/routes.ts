import Type from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { ApiError } from '../core/errors.js';
import type { AppContext } from '../app-context.js';
import { sendError } from '../plugins/error-handler.js';
import { settle } from '../core/maybe-promise.js';
import { UNLIMITED } from '../core/unmetered.js';
import { pathOf } from '../core/url-path.js';
import { addAdminKeyRoutes } from './routes-keys.js';
import { ABUSE_THRESHOLDS, BLOCK_MS, abuseKind, type Admission, type Protection, type Standing } from './service.js';
import { POLICY_WINDOW_S, limitDetails, policyField, serviceLimitField } from './ratelimit-fields.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's identity and bucket after this request's take (unset on unmetered routes and blocks). */
    standing?: Standing;
  }
}

/** The policy an abuse block answers with: no request for the block's 10 minutes. */
const BLOCK_POLICY = 'blocked';

/** Root-level hooks: blocks, then the identity's token bucket with the RateLimit fields; abuse signals counted on the way out. */
export function registerProtection(app: FastifyInstance, protection: Protection): void {
  app.decorateRequest('standing', undefined);
  // Callback-style: an anonymous request on the in-process cache is admitted without a microtask hop.
  app.addHook('onRequest', (request, reply, done) => {
    if (UNLIMITED.has(pathOf(request.url))) return done();
    settle(protection.admit(request), (admission) => (answer(protection, request, reply, admission) ? undefined : done()), done);
  });
  // Counted before the answer leaves, so the next request already sees a block this one earned.
  app.addHook('onSend', (request, reply, payload, done) => {
    const kind = abuseKind(request, reply.statusCode);
    if (!kind) return done(null, payload);
    protection.record(request.ip, kind).then(() => done(null, payload), done);
  });
}

/**
 * Sends the refusal when the request is blocked or over its limit (true), else sets the RateLimit fields
 * (src/protection/ratelimit-fields.ts): the tier's constant policy and the bucket's remaining requests.
 */
function answer(protection: Protection, request: FastifyRequest, reply: FastifyReply, admission: Admission): boolean {
  if ('blockedS' in admission) {
    const retryAfterS = admission.blockedS;
    reply
      .header('ratelimit-policy', policyField(BLOCK_POLICY, 0, BLOCK_MS / 1000))
      .header('ratelimit', serviceLimitField(BLOCK_POLICY, 0, retryAfterS));
    sendError(
      reply,
      request,
      new ApiError(
        'blocked',
        'this address is temporarily blocked after repeated invalid requests',
        limitDetails(BLOCK_POLICY, 0, BLOCK_MS / 1000, retryAfterS),
      ),
    );
    return true;
  }
  request.standing = admission;
  const { bucket, limit, identity } = admission;
  const resetS = bucket.allowed ? bucket.resetS : bucket.retryAfterS;
  reply
    .header('ratelimit-policy', protection.policies[identity.tier])
    .header('ratelimit', serviceLimitField(identity.tier, bucket.remaining, resetS));
  if (bucket.allowed) return false;
  sendError(
    reply,
    request,
    new ApiError(
      'rate_limited',
      `rate limit of ${limit} requests per minute (${identity.tier} tier) reached`,
      limitDetails(identity.tier, limit, POLICY_WINDOW_S, bucket.retryAfterS, bucket.resetS),
    ),
  );
  return true;
}

/** The admin's API keys, then the public protection figures. */
export const protectionRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps, protection } = ctx;
    addAdminKeyRoutes(app, protection, deps.config);

    app.get(
      '/api/v1/protection/stats',
      {
        config: { signed: true },
        schema: {
          tags: ['protection'],
          summary: 'Signed aggregate protection figures for the last hour',
          description:
            `Tiers (requests per minute, token bucket with a one-minute burst): anonymous per IP ${deps.config.ratePerMin.anonymous}, standard key ${deps.config.ratePerMin.standard}, ` +
            `pro key ${deps.config.ratePerMin.pro}, pass ${deps.config.ratePerMin.pass}. Every metered answer carries \`RateLimit-Policy\` and \`RateLimit\` ` +
            '(draft-ietf-httpapi-ratelimit-headers-12, docs/agents.md); a 429 adds Retry-After and says the limit in `details`. ' +
            `An IP is blocked for ${BLOCK_MS / 60_000} minutes (403 \`blocked\`) after more than ${ABUSE_THRESHOLDS.invalid_payment} invalid payments, ` +
            `${ABUSE_THRESHOLDS.cursor_forgery} forged cursors or ${ABUSE_THRESHOLDS.client_error} other 4xx answers within a minute.`,
          response: {
            200: Type.Object({
              window_s: Type.Integer(),
              requests: Type.Integer(),
              rate_limited: Type.Integer(),
              blocks: Type.Integer(),
              abuse_invalid_payment: Type.Integer(),
              abuse_cursor_forgery: Type.Integer(),
              abuse_client_error: Type.Integer(),
              active_api_keys: Type.Integer(),
              as_of: Type.Integer(),
            }),
          },
        },
      },
      async () => protection.stats(),
    );
  };
