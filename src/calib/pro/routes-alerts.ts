import Type from 'typebox';
import { errorResponses, SECURITY } from '../../core/schemas.js';
import type { RouteApp } from '../../core/route-app.js';
import { AUTH_DESCRIPTION, keepRawBodyOfSignedRequests } from '../agent-auth.js';
import { AgentId } from '../schemas.js';
import { DEFAULT_MIN_RESOLVED, DRIFT_RULES } from './drift.js';
import { WEBHOOK_RULES } from './webhooks.js';
import { Nullable, PRO_ONLY, tags, type ProParts } from './routes-shared.js';

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

/** Drift alerts: the agent sets a threshold and a webhook, and reads its drift state and deliveries. */
export function addAlertRoutes(app: RouteApp, { deps, pro, repo, auth, webhooks }: ProParts): void {
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
}
