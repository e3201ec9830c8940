import type { AppContext } from '../app-context.js';
import type { Deps } from '../deps.js';
import { keepRawBodyOfSignedRequests, type AgentAuth } from './agent-auth.js';
import { RESERVED_NAMESPACES } from './namespaces.js';
import { PRODUCT_TAG, type CalibPro } from './pro/service.js';

/** What the calibration routes work with, built once by calibRoutes. */
export interface CalibParts {
  ctx: AppContext;
  deps: Deps;
  auth: AgentAuth;
  pro: CalibPro;
}

export const PUBLIC = 'Public: no credentials needed.';
export const RESERVED = `Agent ids in the namespaces ${RESERVED_NAMESPACES.map((n) => `${n}:`).join(', ')} are written by svc only (403 forbidden).`;
export const signed = { signed: true };
export const tags = ['calibration'];
export const proTags = ['calibration', PRODUCT_TAG];
export const write = { preParsing: keepRawBodyOfSignedRequests };
