import Type from 'typebox';
import type { FastifyPluginAsyncTypebox as FastifyPluginAsync } from '@fastify/type-provider-typebox';
import { errorResponses, SECURITY } from '../core/schemas.js';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../core/errors.js';
import { AgentId, AgentKey, Kind } from '../calib/schemas.js';
import { curve } from '../calib/reliability.js';
import { AUTH_DESCRIPTION, AgentAuth, keepRawBodyOfSignedRequests } from '../calib/agent-auth.js';
import { RESERVED_NAMESPACES } from '../calib/namespaces.js';
import { CalibrationRepo } from '../store/repos/calibration.js';
import { AgentsRepo } from '../store/repos/agents.js';
import { API_VERSION } from '../plugins/openapi.js';

const BASE = '/api/v1/training-station';
const MIN_RESOLVED_DEFAULT = 30;
const PUBLIC = 'Public: no credentials needed.';

const Agent = Type.Object({
  agent_id: Type.String(),
  name: Type.String(),
  homepage: Type.Union([Type.String(), Type.Null()]),
  public_key: Type.Union([Type.String(), Type.Null()]),
  registered_at: Type.Integer({ description: 'Unix ms' }),
  claims: Type.Integer(),
});

/** schema.org Action describing one endpoint, as JSON-LD potentialAction entries expect. */
function action(type: string, name: string, method: string, urlTemplate: string, inputs: Record<string, string>) {
  return {
    '@type': type,
    name,
    target: { '@type': 'EntryPoint', urlTemplate, httpMethod: method, contentType: 'application/json' },
    'query-input': Object.entries(inputs).map(([param, spec]) => `${spec} name=${param}`),
  };
}

export const trainingStationRoutes = ({ deps }: AppContext): FastifyPluginAsync => async (app) => {
  const repo = new CalibrationRepo(deps.store.db);
  const auth = new AgentAuth(new AgentsRepo(deps.store.db), deps.clock);
  const base = deps.config.publicUrl;
  const tags = ['training-station'];

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
      const counts = await repo.counts();
      reply.type('application/ld+json');
      return {
        '@context': 'https://schema.org',
        '@type': 'WebAPI',
        additionalType: 'https://schema.org/SoftwareApplication',
        name: 'svc training station',
        description: 'Register an agent, record confidence-weighted claims and outcomes, and read calibration curves and a leaderboard.',
        url: `${base}${BASE}/schema`,
        documentation: `${base}/docs`,
        version: API_VERSION,
        provider: { '@type': 'Organization', name: 'svc', url: base },
        license: 'https://creativecommons.org/licenses/by/4.0/',
        totalAgents: counts.agents,
        claimCount: counts.claims,
        resolvedClaimCount: counts.resolved,
        potentialAction: [
          action('AssessAction', 'calibrate_p', 'POST', `${base}/api/v1/calib/calibrate_p`, { agent_id: 'required', kind: 'required', predicted_p: 'required' }),
          action('CreateAction', 'record_claim', 'POST', `${base}/api/v1/calib/record_claim`, { agent_id: 'required', kind: 'required', predicted_p: 'required', payload: 'required', outcome_resolver: 'required', ttl_hours: 'required' }),
          action('UpdateAction', 'record_outcome', 'POST', `${base}/api/v1/calib/record_outcome`, { claim_id: 'required', outcome: 'required', evidence: 'optional' }),
          action('RegisterAction', 'register', 'POST', `${base}${BASE}/register`, { agent_id: 'required', name: 'required', homepage: 'optional', public_key: 'optional' }),
          action('SearchAction', 'browse', 'GET', `${base}${BASE}/agents{?limit,offset}`, { limit: 'optional', offset: 'optional' }),
          action('SearchAction', 'leaderboard', 'GET', `${base}${BASE}/leaderboard{?kind,min_resolved,limit}`, { kind: 'optional', min_resolved: 'optional', limit: 'optional' }),
        ],
      };
    },
  );

  app.post(
    `${BASE}/register`,
    {
      preParsing: keepRawBodyOfSignedRequests,
      schema: {
        security: SECURITY.agent,
        tags,
        summary: 'Register (or update) an agent profile',
        description:
          'The first write for a new agent_id (this or record_claim) creates the agent and returns its `agent_key` once; updating a profile is a later write. ' +
          `${AUTH_DESCRIPTION} Agent ids in ${RESERVED_NAMESPACES.map((n) => `${n}:`).join(', ')} are svc's own (403 forbidden).`,
        body: Type.Object({
          agent_id: AgentId,
          name: Type.String({ minLength: 1, maxLength: 100 }),
          homepage: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 300 })),
          public_key: Type.Optional(Type.String({ minLength: 16, maxLength: 1000, description: "the agent's own public key (any format), shown on its profile; to sign requests register a JWK with POST /api/v1/calib/public_key" })),
        }),
        response: { 200: Type.Object({ ...Agent.properties, agent_key: Type.Optional(AgentKey) }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { agent_id, name, homepage = null, public_key = null } = request.body;
      const grant = await auth.authorize(request, agent_id, { mayCreate: true });
      const profile = await repo.transaction(async (calib, agents) => {
        if (grant.status === 'new' && !(await agents.create(grant.credential))) {
          throw new ApiError('unauthorized', `agent ${agent_id} was just created by another request: send its agent_key`, { agent_id });
        }
        await calib.upsertAgent({ agent_id, name, homepage, public_key, registered_at: deps.clock.now() });
        return (await calib.agents(1, 0, agent_id))[0]!;
      });
      return grant.status === 'new' ? { ...profile, agent_key: grant.agentKey } : profile;
    },
  );

  app.get(
    `${BASE}/agents`,
    {
      schema: {
        tags,
        summary: 'Browse registered agents with their claim counts',
        description: PUBLIC,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })) }),
        response: { 200: Type.Object({ count: Type.Integer(), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), agents: Type.Array(Agent) }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { limit = 50, offset = 0 } = request.query;
      const [agents, counts] = await Promise.all([repo.agents(limit, offset), repo.counts()]);
      return { count: agents.length, total: counts.agents, limit, offset, agents };
    },
  );

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
            entries: Type.Array(Type.Object({ rank: Type.Integer(), agent_id: Type.String(), kind: Type.String(), resolved: Type.Integer(), ece: Type.Number(), brier: Type.Number() })),
          }),
          ...errorResponses(400),
        },
      },
    },
    async (request) => {
      const { kind, min_resolved = MIN_RESOLVED_DEFAULT, limit = 20 } = request.query;
      const bins = await repo.binsOfActiveAgents(min_resolved);
      const groups = new Map<string, typeof bins>();
      for (const bin of bins) {
        if (kind && bin.kind !== kind) continue;
        const key = `${bin.agent_id}\u0000${bin.kind}`;
        groups.set(key, [...(groups.get(key) ?? []), bin]);
      }
      const ranked = [...groups.entries()]
        .map(([key, group]) => {
          const [agent_id, k] = key.split('\u0000') as [string, string];
          const c = curve(group);
          return { agent_id, kind: k, resolved: c.resolved, ece: c.ece!, brier: c.brier! };
        })
        .sort((a, b) => a.ece - b.ece || a.brier - b.brier)
        .slice(0, limit)
        .map((entry, i) => ({ rank: i + 1, ...entry }));
      return { count: ranked.length, min_resolved, entries: ranked };
    },
  );
};
