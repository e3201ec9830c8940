import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.js';
import type { CalibProRepo } from '../../store/repos/calib-pro.js';
import { AGENT_KEY_PREFIX, hashAgentKey } from '../agent-auth.js';

/** The agent key (`Authorization: Bearer svc-ak_…`) a request carries, if any. */
export const presentedAgentKey = (request: FastifyRequest): string | undefined => {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return token?.startsWith(AGENT_KEY_PREFIX) ? token : undefined;
};

/**
 * calib-pro's higher rate limits: the agent whose agent key a request carries, when that agent is
 * on calib-pro now. One indexed look-up, and only for requests with an agent key.
 */
export const calibProAgentOf =
  (repo: CalibProRepo, clock: Clock) =>
  async (request: FastifyRequest): Promise<string | undefined> => {
    const token = presentedAgentKey(request);
    return token ? repo.proAgentByKeyHash(hashAgentKey(token), clock.now()) : undefined;
  };
