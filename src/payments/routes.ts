import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses, SECURITY } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { PASS_HOURS, PASS_PRICES } from './pricing.js';
import type { PassKind } from './passes.js';
import { sendStoredAnswer } from './answers.js';

const SETTLE_EVERY_MS = 15_000;
const PURGE_IDEMPOTENT_EVERY_MS = 3_600_000;

export const paymentRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    if (deps.config.paymentSettle === 'async')
      ctx.jobs.push({ name: 'x402-settle', everyMs: SETTLE_EVERY_MS, run: () => ctx.payments.settlePending() });
    // Idempotency-Keys and stored paid answers are kept 24 h (src/payments/idempotency.ts).
    ctx.jobs.push({
      name: 'idempotency-purge',
      everyMs: PURGE_IDEMPOTENT_EVERY_MS,
      run: async () => void (await deps.repos.idempotency.purgeExpired(deps.clock.now())),
    });

    for (const kind of Object.keys(PASS_HOURS) as PassKind[]) {
      app.post(
        `/api/v1/pass/${kind}`,
        {
          schema: {
            tags: ['payments'],
            summary: `Buy a ${kind} pass (${PASS_HOURS[kind]} h of unlimited bundles and streams)`,
            description:
              `Answers 402 with an x402 challenge for ${PASS_PRICES[kind]} USDC atomic units; retry with \`X-Payment\` or \`PAYMENT-SIGNATURE\`. When a facilitator is configured ` +
              'the payment is settled before the pass is issued. Present the pass as `Authorization: Bearer <pass>`; it expires exactly ' +
              `${PASS_HOURS[kind]} h after issue. Retrying the same paid request returns the same pass. Note: stock x402 clients cap single payments ` +
              '(x402-fetch at $0.10, @x402/fetch at $1 by default); raise the cap to buy a pass.',
            security: SECURITY.x402,
            response: {
              200: Type.Object({ pass: Type.String(), kind: Type.String(), expires_at: Type.Integer({ description: 'Unix s' }) }),
              ...errorResponses(400, 402),
            },
          },
        },
        async (request, reply) => {
          const bought = await ctx.payments.buyPass(request, kind, {
            amount: PASS_PRICES[kind],
            resource: `${deps.config.publicUrl}/api/v1/pass/${kind}`,
            description: `svc ${kind} pass (${PASS_HOURS[kind]} h)`,
          });
          if ('stored' in bought) return sendStoredAnswer(reply, bought.stored);
          reply.headers(bought.headers);
          return bought.pass;
        },
      );
    }
  };
