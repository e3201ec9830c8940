import Type from 'typebox';
import type { Deps } from '../../deps.js';
import type { CalibProRepo } from '../../store/repos/calib-pro.js';
import type { AgentAuth } from '../agent-auth.js';
import type { DriftWatch } from './drift.js';
import { PRODUCT_TAG, type CalibPro } from './service.js';
import type { Webhooks } from './webhooks.js';

/** What the calib-pro routes work with, built once by the calibration feature. */
export interface ProParts {
  deps: Deps;
  pro: CalibPro;
  repo: CalibProRepo;
  auth: AgentAuth;
  drift: DriftWatch;
  webhooks: Webhooks;
}

export const tags = ['calibration', PRODUCT_TAG];
export const PRO_ONLY = 'Only for agents on calib-pro (else 403 forbidden, reason calib_pro_required).';
export const Nullable = (description: string) => Type.Unsafe<number | null>({ type: 'number', nullable: true, description });
