import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import type { RouteApp } from '../core/route-app.js';
import { ApiError } from '../core/errors.js';
import { SECURITY, errorResponses } from '../core/schemas.js';
import { bearerToken, derivedSecret, sameSecret } from '../core/secrets.js';
import { modelsFor } from '../models/index.js';
import { honeypotRoutes } from './routes-honeypot.js';
import { CONSENSUS_RULE } from './arbitrate.js';
import { PATTERNS, THRESHOLDS } from './rules.js';
import { ArbitrateResponse, ClassifyBody, ClassifyResponse, FeedbackBody, FeedbackResponse, PatternsResponse } from './schemas.js';
import { CLAIM_KIND, ConstitutionalService, MAX_TEXT_BYTES, PANEL_AGENT, RULES_AGENT } from './service.js';

const tags = ['constitutional'];
const signed = { signed: true };
const LEDGER =
  `Each answer records a calibration claim (kind \`${CLAIM_KIND}\`, predicted_p = p_harmful); labelled feedback resolves it, ` +
  `so GET /api/v1/calib/curve?agent_id=${RULES_AGENT}&kind=${CLAIM_KIND} is the public calibration ledger.`;
const PUBLIC = 'Public: no credentials needed.';

/** The constitutional classifier: its patterns and judgements, labelled feedback, then the honeypot (registered in that order). */
export const constitutionalRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { deps } = ctx;
    const canary = `sk-canary-${derivedSecret(deps.signingKey.privateKey, 'constitutional-canary').toString('hex').slice(0, 32)}`;
    const service = new ConstitutionalService({
      calib: deps.calibration,
      repo: deps.repos.constitutional,
      clock: deps.clock,
      models: modelsFor(deps),
      canary,
    });
    ctx.jobs.push({
      name: 'constitutional-self-jailbreak',
      everyMs: 24 * 3_600_000,
      run: async () => void (await service.runSelfJailbreak()),
    });

    addJudgementRoutes(app, service);
    addFeedbackRoute(app, deps, service);
    await app.register(honeypotRoutes(service));
  };

/** What the classifier knows (its patterns) and its two ways to judge a text: the rules alone, or the model panel with them. */
function addJudgementRoutes(app: RouteApp, service: ConstitutionalService): void {
  app.get(
    '/api/v1/constitutional/patterns',
    {
      config: signed,
      schema: {
        tags,
        summary: 'The 30 documented patterns of the constitutional classifier',
        description: PUBLIC,
        response: { 200: PatternsResponse },
      },
    },
    async () => ({ count: PATTERNS.length, thresholds: THRESHOLDS, patterns: service.patterns() }),
  );

  app.post(
    '/api/v1/constitutional/classify',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Classify a text sent to (input) or written by (output) an AI system: the rule stage',
        description:
          'The text is normalized (invisible characters removed, NFKC, confusables folded) and every embedded encoding decoded ' +
          'into its own layer ' +
          '(base64, hex, percent, HTML entities, \\u escapes, ROT13, reversed, leetspeak, spaced letters, tag characters, ' +
          'Braille); every pattern of the direction runs on every layer. ' +
          `Pattern scores and p_harmful combine by noisy-or; verdict: block from ${THRESHOLDS.block}, flag from ` +
          `${THRESHOLDS.flag}, else allow. ` +
          `At most ${MAX_TEXT_BYTES} bytes (413 payload_too_large). ${LEDGER} ${PUBLIC}`,
        body: ClassifyBody,
        response: { 200: ClassifyResponse, ...errorResponses(400, 413) },
      },
    },
    async (request) => service.classify(request.body),
  );

  app.post(
    '/api/v1/constitutional/arbitrate',
    {
      config: signed,
      schema: {
        tags,
        summary: 'Judge a text with the model panel (up to four vendors) plus the rule stage',
        description:
          `Every panel model gets the same rubric and answers the same JSON schema; the text travels as quoted data. ${CONSENSUS_RULE} ` +
          `Claims are recorded for ${RULES_AGENT}, ${PANEL_AGENT} and each answering judge (constitutional:model:<model id>). ` +
          `503 model_unavailable with no panel model configured (POST /api/v1/constitutional/classify needs none); ` +
          `503 model_budget_exhausted when the models' daily budget is spent. ${PUBLIC}`,
        body: ClassifyBody,
        response: { 200: ArbitrateResponse, ...errorResponses(400, 413, 503) },
      },
    },
    async (request) => service.arbitrate(request.body),
  );
}

/** Labelled feedback (admin only), which resolves the calibration claim of a judged text. */
function addFeedbackRoute(app: RouteApp, deps: Deps, service: ConstitutionalService): void {
  const requireAdmin = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new ApiError('unauthorized', 'admin token required (Authorization: Bearer <SVC_ADMIN_TOKEN>)');
    if (!deps.config.adminToken || !sameSecret(token, deps.config.adminToken)) throw new ApiError('forbidden', 'admin token wrong');
  };

  app.post(
    '/api/v1/constitutional/feedback',
    {
      onRequest: requireAdmin,
      config: signed,
      schema: {
        tags,
        summary: 'Label a classified text (admin): resolves its calibration claim',
        description:
          'Authorization: Bearer <SVC_ADMIN_TOKEN> (401 without, 403 wrong). label harmful resolves the claim with outcome 1, ' +
          'benign with 0, counted as a verified outcome. ' +
          '404 for a claim that is not a constitutional one; 409 already_resolved for a second label.',
        security: SECURITY.admin,
        body: FeedbackBody,
        response: { 200: FeedbackResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.feedback(request.body.claim_id, request.body.label, request.body.note),
  );
}
