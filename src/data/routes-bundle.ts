import Type from 'typebox';
import { FreeFlag, StringEnum, errorResponses } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { BundleResultSchema, resolveQueries, runBundle } from './bundle.js';
import { MAX_BUNDLE_QUERIES, FREE_BUNDLE_QUERIES, bundlePrice } from '../payments/pricing.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { answerBareProbes } from '../payments/probes.js';
import { MaxTokensParam, PageInfoSchema } from './answer-pages.js';
import type { DataParts } from './routes.js';

/** POST /api/data/bundle: several queries in one call, paid by the tier table (or free with one row each). */
export function addBundleRoute(app: RouteApp, { ctx, types, answerPages }: DataParts): void {
  const { deps } = ctx;
  const bundleRequirement = (count: number) => ({
    amount: bundlePrice(count),
    resource: `${deps.config.publicUrl}/api/data/bundle`,
    description: `svc bundle of ${count} ${count === 1 ? 'query' : 'queries'}`,
  });
  // An indexer's bare probe is challenged at the price of one query; free mode asks for no payment.
  const challengeProbe = answerBareProbes(app, '/api/data/bundle', ctx.payments, (request) =>
    (request.query as { free?: string }).free === '1' ? undefined : bundleRequirement(1),
  );
  app.post(
    '/api/data/bundle',
    {
      config: { signed: true },
      preValidation: challengeProbe,
      schema: {
        tags: ['data'],
        summary: `Run 1–${MAX_BUNDLE_QUERIES} queries in one call (x402-paid, or free with at most ${FREE_BUNDLE_QUERIES})`,
        description:
          'Queries run in parallel, each inside its own deadline. Every query is validated first: an unknown type or a malformed q is a 400 naming ' +
          '`queries[i]`, before any payment. Without `free` the call is paid: with no valid `X-Payment`, pass or checkout session it answers 402 with ' +
          'an x402 challenge priced by the tier table (1–2 queries 1000, 3–5: 3500, 6–10: 5000, 11–20: 8000 USDC atomic units). Nothing is charged ' +
          'when every query failed. Free mode (`?free=1` or `free: true`): at most 5 queries, one row each. `max_tokens` asks for the answer ' +
          'in pages (`_page`; the rest free at GET /api/v1/answer-page for 24 h): a retry with the same payment gets the same first page.',
        querystring: Type.Object({ free: FreeFlag, max_tokens: MaxTokensParam }),
        body: Type.Object(
          {
            queries: Type.Array(
              Type.Object({
                type: StringEnum(types),
                q: Type.Optional(Type.String({ maxLength: 2048 })),
                entity: Type.Optional(Type.String({ maxLength: 200 })),
              }),
              { minItems: 1, maxItems: MAX_BUNDLE_QUERIES, description: `1 to ${MAX_BUNDLE_QUERIES} queries` },
            ),
            session_id: Type.Optional(Type.String({ maxLength: 300, description: 'checkout session id (cs_live_…)' })),
            free: Type.Optional(Type.Boolean()),
          },
          { examples: [{ queries: [{ type: 'crypto-price', q: 'bitcoin' }, { type: 'forex', q: 'EUR:USD' }] }] },
        ),
        response: {
          200: Type.Object({
            count: Type.Integer(),
            free: Type.Boolean(),
            queries: Type.Array(Type.Object({ type: Type.String(), q: Type.String() })),
            results: Type.Array(BundleResultSchema, { description: 'every result has `data`: the rows when ok, the failure when not' }),
            payment: Type.Optional(Type.Object({ method: Type.String(), charged: Type.Boolean({ description: 'false when every query failed (the payment was released) or when x402 payments are not settled (PAYMENT_SETTLE=off)' }) })),
            _page: Type.Optional(PageInfoSchema),
          }, { title: 'Bundle', description: 'The answers of a bundle, in query order' }),
          ...errorResponses(400, 402),
        },
      },
    },
    async (request, reply) => {
      const free = request.query.free === '1' || request.body.free === true;
      const queries = await resolveQueries(deps.sources, request.body.queries, ctx.entityToQ, free);
      const requirement = bundleRequirement(queries.length);
      const grant = free ? undefined : await ctx.payments.authorize(request, requirement);
      if (!free && !grant) throw ctx.payments.challenge(request, requirement);
      if (grant?.stored) return sendStoredAnswer(reply, grant.stored);
      const results = await runBundle(deps.sources, queries, free);
      const answered = results.some((r) => r.ok);
      const payment = grant ? { payment: { method: grant.method, charged: answered && grant.charges } } : {};
      const body: BundleBody = { count: results.length, free, queries, results, ...payment };
      reply.provenance = { asOf: newestAsOf(results), sources: results.flatMap((r) => (r.ok ? [String(r.data.source)] : [])) };
      // Paged before the charge is recorded: once it is, the answer stands for every retry, and must be whole.
      const answer = request.query.max_tokens ? await answerPages.first(body, request.query.max_tokens, reply.provenance) : body;
      if (grant) reply.headers(await ctx.payments.finish(request, grant, { charge: answered }));
      return answer;
    },
  );
}

interface BundleBody {
  count: number;
  free: boolean;
  queries: { type: string; q: string }[];
  results: Awaited<ReturnType<typeof runBundle>>;
  payment?: { method: string; charged: boolean };
}

const newestAsOf = (results: Awaited<ReturnType<typeof runBundle>>): number | undefined => {
  const times = results.flatMap((r) => (r.ok ? [Number(r.data.as_of)] : []));
  return times.length ? Math.max(...times) : undefined;
};
