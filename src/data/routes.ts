import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { unixSeconds } from '../core/clock.js';
import { FreeFlag, RowSchema, StringEnum, errorResponses } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { PreviewService, parseAsOf } from './service.js';
import { HotAnswers } from './hot-answers.js';
import { failureReasonList } from '../plugins/openapi-info.js';
import { BundleResultSchema, resolveQueries, runBundle } from './bundle.js';
import { MAX_BUNDLE_QUERIES, FREE_BUNDLE_QUERIES, bundlePrice } from '../payments/pricing.js';
import { sendStoredAnswer } from '../payments/answers.js';
import { answerBareProbes } from '../payments/probes.js';
import { AnswerPages, MaxTokensParam, PageInfoSchema, registerAnswerPageRoute } from './answer-pages.js';

const PURGE_PAGES_EVERY_MS = 3_600_000;

export const dataRoutes = (ctx: AppContext): FastifyPluginAsync => async (app) => {
  const { deps } = ctx;
  const types = deps.registry.types();
  const previews = new PreviewService(deps.sources, deps.repos.sourceHistory, ctx.cursors, deps.clock);
  const hot = new HotAnswers(deps.clock, (cacheKey) => deps.sources.generationOf(cacheKey));
  const answerPages = new AnswerPages(deps.repos.answerPages, deps.clock);
  ctx.jobs.push({ name: 'answer-pages-purge', everyMs: PURGE_PAGES_EVERY_MS, run: async () => void (await answerPages.purgeExpired()) });
  registerAnswerPageRoute(app, answerPages);

  app.get(
    '/api/data/preview',
    {
      config: { signed: true },
      onRequest: hot.serve,
      schema: {
        tags: ['data'],
        summary: 'Free one-row preview of any data type',
        description:
          'Returns the first normalized row with `_receipt` and `_cursor`. `since=<cursor>` answers `{changed:false, _cursor}` when nothing moved, ' +
          'else the full response with `changed:true` and `diff {added, removed, updated}` over all rows. `as_of` (Unix seconds or ISO 8601, within the ' +
          'last 60 minutes) answers from recorded history (404 `no_history` when none). `max_age` bounds staleness in seconds; 0 forces a fresh fetch. ' +
          `Upstream failure is a 200 with \`ok:false\` and \`error\` in ${failureReasonList()} (each explained under Errors above). ` +
          '`skipped_items` counts malformed items of a long upstream list that were left out of an `ok:true` answer. ' +
          'A plain preview served from a fresh cached value carries an `ETag`; `If-None-Match` with it answers 304 while that value is current. ' +
          'Its signed bytes are reused until the value changes, passes its TTL or the second ends (rows say their `age_s` in whole seconds), so ' +
          '`_receipt.issued_at` is when that body was signed (at or after `as_of`), not the time of each request; the receipt still verifies ' +
          'against this exact request and body.',
        querystring: Type.Object({
          type: StringEnum(types, { description: 'data type (see /api/v1/catalog)' }),
          q: Type.Optional(Type.String({ maxLength: 2048, description: 'query in the type’s q shape' })),
          entity: Type.Optional(Type.String({ maxLength: 200, description: 'entity id (svc-ent:…); translated to q' })),
          as_of: Type.Optional(Type.String({ maxLength: 40, description: 'Unix seconds or ISO 8601, within the last 60 minutes' })),
          since: Type.Optional(Type.String({ maxLength: 2048, description: 'a _cursor from an earlier preview' })),
          max_age: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, description: 'maximum age of a cached value in seconds' })),
          free: FreeFlag,
        }),
        response: {
          200: Type.Object(
            {
              ok: Type.Boolean(),
              type: Type.Optional(Type.String()),
              q: Type.Optional(Type.String()),
              preview: Type.Optional(RowSchema),
              changed: Type.Optional(Type.Boolean()),
              diff: Type.Optional(
                Type.Object({ added: Type.Array(RowSchema), removed: Type.Array(RowSchema), updated: Type.Array(RowSchema) }),
              ),
              _cursor: Type.Optional(Type.String({ description: 'svc-cur:<opaque>' })),
            },
            { additionalProperties: true },
          ),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const q = query.entity !== undefined ? await ctx.entityToQ(query.type, query.entity, query.q) : query.q;
      const asOf = query.as_of === undefined ? undefined : parseAsOf(query.as_of, unixSeconds(deps.clock));
      const { body, keepable } = await previews.answer({ type: query.type, q, since: query.since, asOf, maxAgeS: query.max_age });
      if (keepable) reply.keepAnswer = (bytes) => hot.keep(request.url, bytes, keepable);
      return body;
    },
  );

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
};

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
