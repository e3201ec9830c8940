import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses, SECURITY } from '../../core/schemas.js';
import type { Deps } from '../../deps.js';
import type { Job } from '../../scheduler/scheduler.js';
import type { CalibProRepo } from '../../store/repos/calib-pro.js';
import { AUTH_DESCRIPTION, keepRawBodyOfSignedRequests, type AgentAuth } from '../agent-auth.js';
import { AgentId, Bin, Kind } from '../schemas.js';
import { DEFAULT_MIN_RESOLVED, DRIFT_RULES, type DriftWatch } from './drift.js';
import { EXPORT_RULES, exportHistory } from './export.js';
import { HISTORY_WINDOWS, PRODUCT_TAG, type CalibPro } from './service.js';
import { WEBHOOK_RULES, type Webhooks } from './webhooks.js';

const DRIFT_EVERY_MS = 5 * 60_000;
const DELIVER_EVERY_MS = 30_000;
const tags = ['calibration', PRODUCT_TAG];
const PRO_ONLY = 'Only for agents on calib-pro (else 403 forbidden, reason calib_pro_required).';
const Nullable = (description: string) => Type.Unsafe<number | null>({ type: 'number', nullable: true, description });

export interface ProParts {
  deps: Deps;
  pro: CalibPro;
  repo: CalibProRepo;
  auth: AgentAuth;
  drift: DriftWatch;
  webhooks: Webhooks;
}

const AlertSettings = Type.Object({
  agent_id: AgentId,
  webhook_url: Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()], {
    description: 'where alerts are POSTed; null stops them',
  }),
  ece_threshold: Type.Number({ minimum: 0, maximum: 1, description: 'a kind drifts while its 30-day ECE is strictly above this' }),
  min_resolved: Type.Optional(
    Type.Integer({
      minimum: 10,
      maximum: 100_000,
      default: DEFAULT_MIN_RESOLVED,
      description: 'outcomes a kind needs in the window to be judged',
    }),
  ),
});

const NullableInteger = (description: string) => Type.Unsafe<number | null>({ type: 'integer', nullable: true, description });

const AlertsView = Type.Object({
  agent_id: Type.String(),
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  ece_threshold: Nullable('null until alerts are set'),
  min_resolved: Type.Integer(),
  kinds: Type.Array(
    Type.Object({
      kind: Type.String(),
      drifting: Type.Boolean(),
      ece: Nullable('30-day ECE at the last check'),
      checked_at: Type.Integer({ description: 'Unix ms' }),
    }),
  ),
  deliveries: Type.Array(
    Type.Object({
      id: Type.String({ description: 'the event id, also X-Svc-Webhook-Id' }),
      type: Type.String({ description: 'calib.drift or calib.recovered' }),
      status: Type.String({ description: 'pending, delivered or failed' }),
      attempts: Type.Integer(),
      last_error: Type.Union([Type.String(), Type.Null()]),
      created_at: Type.Integer({ description: 'Unix ms' }),
      next_attempt_at: Type.Integer({ description: 'Unix ms; meaningful while pending' }),
      delivered_at: NullableInteger('Unix ms'),
    }),
  ),
});

const HistoryWindow = Type.Object({
  window: Type.String({ description: '30d, 90d or 365d' }),
  from: Type.Integer({ description: 'Unix s: outcomes resolved after it count' }),
  resolved: Type.Integer(),
  verified_outcomes: Type.Integer(),
  self_reported_outcomes: Type.Integer(),
  ece: Nullable('null without resolved claims'),
  brier: Nullable('null without resolved claims'),
  miscalibration: Type.String(),
  bins: Type.Array(Bin),
});

/** The calib-pro routes: drift alerts, history windows and the signed export; registered by the calibration feature. */
export const calibProRoutes =
  ({ deps, pro, repo, auth, drift, webhooks }: ProParts, jobs: Job[]): FastifyPluginAsync =>
  async (app) => {
    jobs.push({ name: 'calib-pro-drift', everyMs: DRIFT_EVERY_MS, run: async () => void (await drift.check()) });
    jobs.push({ name: 'calib-pro-webhooks', everyMs: DELIVER_EVERY_MS, run: async () => void (await webhooks.deliverDue()) });

    app.post(
      '/api/v1/calib/pro/alerts',
      {
        preParsing: keepRawBodyOfSignedRequests,
        schema: {
          security: SECURITY.agent,
          tags,
          summary: "calib-pro: set drift alerts (a signed webhook when a kind's ECE worsens past a threshold)",
          description: `${DRIFT_RULES} ${WEBHOOK_RULES} ${PRO_ONLY} ${AUTH_DESCRIPTION}`,
          body: AlertSettings,
          response: {
            200: Type.Object({
              agent_id: Type.String(),
              webhook_url: Type.Union([Type.String(), Type.Null()]),
              ece_threshold: Type.Number(),
              min_resolved: Type.Integer(),
            }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => {
        const { agent_id, webhook_url, ece_threshold, min_resolved = DEFAULT_MIN_RESOLVED } = request.body;
        await auth.authorize(request, agent_id, { mayCreate: false });
        await pro.requirePro(agent_id);
        if (webhook_url) webhooks.checkTarget(webhook_url);
        await repo.setAlerts(agent_id, { webhook_url, ece_threshold, min_resolved }, deps.clock.now());
        return { agent_id, webhook_url, ece_threshold, min_resolved };
      },
    );

    app.get(
      '/api/v1/calib/pro/alerts',
      {
        schema: {
          security: SECURITY.agent,
          tags,
          summary: "calib-pro: the alert settings, each kind's drift state and the latest webhook deliveries",
          description: `Deliveries newest first (at most 50), with their attempts and last error. Only the agent itself may read them. ${PRO_ONLY} ${AUTH_DESCRIPTION}`,
          querystring: Type.Object({ agent_id: AgentId }),
          response: { 200: AlertsView, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { agent_id } = request.query;
        await auth.authorize(request, agent_id, { mayCreate: false });
        await pro.requirePro(agent_id);
        const [settings, kinds, deliveries] = await Promise.all([
          repo.proAgent(agent_id),
          repo.driftStates(agent_id),
          repo.deliveries(agent_id),
        ]);
        return {
          agent_id,
          webhook_url: settings!.webhook_url,
          ece_threshold: settings!.ece_threshold,
          min_resolved: settings!.min_resolved ?? DEFAULT_MIN_RESOLVED,
          kinds: kinds.map((k) => ({ kind: k.kind, drifting: k.drifting === 1, ece: k.ece, checked_at: k.checked_at })),
          deliveries: deliveries.map(({ id, status, attempts, last_error, created_at, next_attempt_at, delivered_at, body }) => ({
            id,
            type: (JSON.parse(body) as { type: string }).type,
            status,
            attempts,
            last_error,
            created_at,
            next_attempt_at,
            delivered_at,
          })),
        };
      },
    );

    app.get(
      '/api/v1/calib/pro/history',
      {
        config: { signed: true },
        schema: {
          tags,
          summary: "calib-pro: one kind's calibration over the last 30, 90 and 365 days",
          description:
            `Each window holds the outcomes resolved in its last ${Object.values(HISTORY_WINDOWS).join(', ')} days (verified and self-reported, counted apart): curve bins, ECE, Brier and the card's miscalibration label. ` +
            `Public, like the agent's curves. ${PRO_ONLY}`,
          querystring: Type.Object({ agent_id: AgentId, kind: Kind }),
          response: {
            200: Type.Object({
              agent_id: Type.String(),
              kind: Type.String(),
              product: Type.String(),
              pro_until: Type.Union([Type.Integer(), Type.Null()]),
              as_of: Type.Integer(),
              windows: Type.Array(HistoryWindow),
            }),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request, reply) => {
        const history = await pro.history(request.query.agent_id, request.query.kind);
        reply.provenance = { asOf: history.as_of, sources: [] };
        return history;
      },
    );

    app.get(
      '/api/v1/calib/pro/export',
      {
        schema: {
          security: SECURITY.agent,
          tags,
          summary: "calib-pro: the agent's whole claim history as signed JSON Lines",
          description: `${EXPORT_RULES} Only the agent itself may export. ${PRO_ONLY} ${AUTH_DESCRIPTION}`,
          querystring: Type.Object({ agent_id: AgentId }),
          response: {
            200: { description: 'JSON Lines, one signed claim per line', content: { 'application/x-ndjson': { schema: Type.String() } } },
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request, reply) => {
        const { agent_id } = request.query;
        await auth.authorize(request, agent_id, { mayCreate: false });
        await pro.requirePro(agent_id);
        const body = await exportHistory(repo, deps.signingKey, deps.config.issuer, agent_id, Math.floor(deps.clock.now() / 1000));
        return reply.type('application/x-ndjson').send(body);
      },
    );
  };
