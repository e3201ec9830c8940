import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import { StringEnum, errorResponses } from '../core/schemas.js';
import { passToken } from '../payments/credentials.js';
import { callerOf } from '../protection/service.js';
import { Limits } from './service.js';

const LimitsSchema = Type.Object(
  {
    tier: StringEnum(['anonymous', 'standard', 'pro', 'pass'] as const, { description: 'the rate-limit tier this request was counted in' }),
    identified_by: StringEnum(['address', 'api_key', 'pass', 'agent_key'] as const, {
      description: 'what told the caller apart: the client address, an API key (X-API-Key), a pass, a calib-pro agent key',
    }),
    rate: Type.Object(
      {
        policy: Type.String({ description: 'the policy name in RateLimit-Policy and RateLimit' }),
        limit: Type.Integer({ description: 'requests per window' }),
        window_s: Type.Integer(),
        remaining: Type.Integer({ description: 'requests left after this one' }),
        reset_s: Type.Integer({ description: 'seconds until the quota is whole again' }),
      },
      { description: 'the numbers of the RateLimit fields, as of this request' },
    ),
    pass: Type.Union([
      Type.Object({
        kind: Type.String({ description: 'day or week' }),
        expires_at: Type.Integer({ description: 'Unix s' }),
        remaining_s: Type.Integer({ description: 'the pass balance: seconds of unlimited paid calls left' }),
        valid: Type.Boolean(),
      }),
      Type.Null({ description: 'no pass presented, or an unknown one' }),
    ]),
    spend_today: Type.Object(
      {
        amount: Type.String({ description: 'USDC atomic units charged in x402 payments since 00:00 UTC (a retried request counts once)' }),
        usd: Type.String(),
        asset: Type.String(),
        paid_calls: Type.Integer(),
        since: Type.Integer({ description: 'Unix s: 00:00 UTC today' }),
      },
      { description: 'payments recorded for this caller (the same address, API key, pass or agent key) today' },
    ),
    as_of: Type.Integer({ description: 'Unix s' }),
  },
  { title: 'Limits' },
);

export const limitsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const limits = new Limits(deps.config, deps.clock, deps.repos);
    app.get(
      '/api/v1/limits',
      {
        schema: {
          tags: ['protection'],
          summary: 'The caller’s standing: tier, rate limit left, pass balance, spend today',
          description:
            'Free, and counted like any request (this answer’s own RateLimit fields match `rate`). The caller is told apart as the rate ' +
            'limiter does: `X-API-Key`, a pass (`Authorization: Bearer svc-pass_…` or `X-Svc-Pass`), a calib-pro agent key, else the client ' +
            'address. `spend_today` sums the x402 payments recorded for that caller since 00:00 UTC. docs/agents.md says what to do with each field.',
          response: { 200: LimitsSchema, ...errorResponses(401) },
        },
      },
      async (request) => limits.standingOf({ standing: request.standing, passToken: passToken(request), caller: callerOf(request) }),
    );
  };
