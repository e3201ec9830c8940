import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { PageFields, PageQuery, errorResponses, SECURITY } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import type { RouteApp } from '../core/route-app.js';
import { AgentId, AgentKey, Kind } from '../calib/schemas.js';
import { AUTH_DESCRIPTION, AgentAuth, keepRawBodyOfSignedRequests } from '../calib/agent-auth.js';
import { RESERVED_NAMESPACES } from '../calib/namespaces.js';
import { BASE, TrainingStationService } from './service.js';

const MIN_RESOLVED_DEFAULT = 30;
const PUBLIC = 'Public: no credentials needed.';
const tags = ['training-station'];

const Agent = Type.Object({
  agent_id: Type.String(),
  name: Type.String(),
  homepage: Type.Union([Type.String(), Type.Null()]),
  public_key: Type.Union([Type.String(), Type.Null()]),
  registered_at: Type.Integer({ description: 'Unix ms' }),
  claims: Type.Integer(),
});

/** The training station: the node's description, its agents, then their leaderboard (registered in that order). */
export const trainingStationRoutes =
  ({ deps }: AppContext): FastifyPluginAsync =>
  async (app) => {
    const station = new TrainingStationService(deps.repos.calibration, deps.clock, deps.config.publicUrl);
    const auth = new AgentAuth(deps.repos.agents, deps.clock);
    addNodeDescription(app, station);
    addAgentRoutes(app, station, auth);
    addLeaderboard(app, station);
  };

/** The node's JSON-LD description, with live counts. */
function addNodeDescription(app: RouteApp, station: TrainingStationService): void {
  app.get(
    `${BASE}/schema`,
    {
      schema: {
        tags,
        summary: 'JSON-LD description of this AI-service node, with live counts',
        description: PUBLIC,
        response: { 200: Type.Object({ '@context': Type.String(), '@type': Type.String() }, { additionalProperties: true }) },
      },
    },
    async (_request, reply) => {
      reply.type('application/ld+json');
      return station.describe();
    },
  );
}

/** Agent profiles: registering (or updating) one, and browsing them with their claim counts. */
function addAgentRoutes(app: RouteApp, station: TrainingStationService, auth: AgentAuth): void {
  app.post(
    `${BASE}/register`,
    {
      preParsing: keepRawBodyOfSignedRequests,
      schema: {
        security: SECURITY.agentOrNew,
        tags,
        summary: 'Register (or update) an agent profile',
        description:
          'The first write for a new agent_id (this or record_claim) creates the agent and returns its `agent_key` once; updating a profile is a later write. ' +
          `${AUTH_DESCRIPTION} Agent ids in ${RESERVED_NAMESPACES.map((n) => `${n}:`).join(', ')} are svc's own (403 forbidden).`,
        body: Type.Object({
          agent_id: AgentId,
          name: Type.String({ minLength: 1, maxLength: 100 }),
          homepage: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 300 })),
          public_key: Type.Optional(
            Type.String({
              minLength: 16,
              maxLength: 1000,
              description:
                "the agent's own public key (any format), shown on its profile; to sign requests register a JWK with POST /api/v1/calib/public_key",
            }),
          ),
        }),
        response: { 200: Type.Object({ ...Agent.properties, agent_key: Type.Optional(AgentKey) }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { agent_id, name, homepage = null, public_key = null } = request.body;
      const grant = await auth.authorize(request, agent_id, { mayCreate: true });
      return station.register(grant, { agent_id, name, homepage, public_key });
    },
  );

  app.get(
    `${BASE}/agents`,
    {
      schema: {
        tags,
        summary: 'Browse registered agents with their claim counts',
        description: PUBLIC,
        querystring: Type.Object({
          ...PageQuery,
        }),
        response: {
          200: Type.Object({
            ...PageFields,
            agents: Type.Array(Agent),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { limit = 50, offset = 0 } = request.query;
      return station.browse(limit, offset);
    },
  );
}

/** Agents ranked by calibration, per kind. */
function addLeaderboard(app: RouteApp, station: TrainingStationService): void {
  app.get(
    `${BASE}/leaderboard`,
    {
      config: { signed: true },
      schema: {
        tags,
        summary: 'Agents ranked by ECE, then Brier score',
        description: `Only (agent, kind) pairs with at least min_resolved resolved claims (default ${MIN_RESOLVED_DEFAULT}) are ranked. ${PUBLIC}`,
        querystring: Type.Object({
          kind: Type.Optional(Kind),
          min_resolved: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: MIN_RESOLVED_DEFAULT })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
        }),
        response: {
          200: Type.Object({
            count: Type.Integer(),
            min_resolved: Type.Integer(),
            entries: Type.Array(
              Type.Object({
                rank: Type.Integer(),
                agent_id: Type.String(),
                kind: Type.String(),
                resolved: Type.Integer(),
                ece: Type.Number(),
                brier: Type.Number(),
              }),
            ),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { kind, min_resolved = MIN_RESOLVED_DEFAULT, limit = 20 } = request.query;
      return station.leaderboard(kind, min_resolved, limit);
    },
  );
}
