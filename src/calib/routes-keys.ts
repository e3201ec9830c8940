import Type from 'typebox';
import { ApiError } from '../core/errors.js';
import { errorResponses, SECURITY } from '../core/schemas.js';
import type { RouteApp } from '../core/route-app.js';
import { AgentId, AgentKey, PublicJwk } from './schemas.js';
import { AUTH_DESCRIPTION, hashAgentKey, newAgentKey } from './agent-auth.js';
import { tags, write, type CalibParts } from './routes-shared.js';

/** An agent's credentials: rotating its key, registering the public key whose signatures may replace it. */
export function addAgentKeyRoutes(app: RouteApp, { deps, auth }: CalibParts): void {
  const agents = deps.repos.agents;
  app.post(
    '/api/v1/calib/rotate_key',
    {
      ...write,
      schema: {
        security: SECURITY.agent,
        tags,
        summary: "Replace an agent's key",
        description: `Returns a new agent_key, shown once; the old key stops working at once. Of two concurrent rotations one wins (the other: 409 conflict). ${AUTH_DESCRIPTION}`,
        body: Type.Object({ agent_id: AgentId }),
        response: {
          200: Type.Object({ agent_id: Type.String(), agent_key: AgentKey, rotated_at: Type.Integer({ description: 'Unix ms' }) }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request) => {
      const { credential } = await auth.authorize(request, request.body.agent_id, { mayCreate: false });
      const agentKey = newAgentKey();
      const rotatedAt = deps.clock.now();
      if (!(await agents.rotateKey(credential.agent_id, credential.key_hash, hashAgentKey(agentKey), rotatedAt))) {
        throw new ApiError('conflict', 'the key was rotated by a concurrent request', { agent_id: credential.agent_id });
      }
      return { agent_id: credential.agent_id, agent_key: agentKey, rotated_at: rotatedAt };
    },
  );

  app.post(
    '/api/v1/calib/public_key',
    {
      ...write,
      schema: {
        security: SECURITY.agent,
        tags,
        summary: 'Register (or remove, with null) the Ed25519 public key whose signatures may replace the agent_key',
        description: `The agent_key keeps working. ${AUTH_DESCRIPTION}`,
        body: Type.Object({ agent_id: AgentId, public_jwk: Type.Union([PublicJwk, Type.Null()]) }),
        response: {
          200: Type.Object({ agent_id: Type.String(), public_jwk: Type.Union([PublicJwk, Type.Null()]) }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const { agent_id, public_jwk } = request.body;
      const jwk = public_jwk && { kty: public_jwk.kty, crv: public_jwk.crv, x: public_jwk.x };
      const { credential } = await auth.authorize(request, agent_id, { mayCreate: false });
      await agents.setPublicJwk(credential.agent_id, jwk ? JSON.stringify(jwk) : null);
      return { agent_id, public_jwk: jwk };
    },
  );
}
