import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AgentSessionService } from './service.js';

/** What the session routes work with, built once by agentSessionRoutes. */
export interface SessionParts {
  sessions: AgentSessionService;
  /** The session configuration with the public URL, as the service has it. */
  settings: Config['session'] & { publicUrl: string };
  tags: string[];
}

export const bearer = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** How long ended sessions stay viewable, in hours (the descriptions say it). */
export const retentionHours = (settings: SessionParts['settings']) => settings.retentionMs / 3_600_000;
