import type { Migration } from 'kysely';
import * as m001 from './001_source_history.js';
import * as m002 from './002_leases_snapshots.js';
import * as m003 from './003_viral.js';
import * as m004 from './004_payments.js';
import * as m005 from './005_api_keys.js';
import * as m006 from './006_calibration.js';
import * as m007 from './007_arena.js';
import * as m008 from './008_agent_credentials.js';
import * as m009 from './009_agent_sessions.js';
import * as m010 from './010_portfolio.js';
import * as m011 from './011_shield.js';
import * as m012 from './012_constitutional.js';
import * as m013 from './013_olympics.js';
import * as m015 from './015_calib_pro.js';
import * as m016 from './016_calib_alerts.js';
import * as m017 from './017_calib_kind_counts.js';
import * as m018 from './018_session_image_quotas.js';
import * as m021 from './021_idempotency.js';
import * as m022 from './022_cluster.js';
import * as m023 from './023_tlog.js';
import * as m024 from './024_answer_pages.js';

/** The one migration set, applied in key order on both engines at start-up. */
export const migrations: Record<string, Migration> = {
  '001_source_history': m001,
  '002_leases_snapshots': m002,
  '003_viral': m003,
  '004_payments': m004,
  '005_api_keys': m005,
  '006_calibration': m006,
  '007_arena': m007,
  '008_agent_credentials': m008,
  '009_agent_sessions': m009,
  '010_portfolio': m010,
  '011_shield': m011,
  '012_constitutional': m012,
  '013_olympics': m013,
  '015_calib_pro': m015,
  '016_calib_alerts': m016,
  '017_calib_kind_counts': m017,
  '018_session_image_quotas': m018,
  '021_idempotency': m021,
  '022_cluster': m022,
  '023_tlog': m023,
  '024_answer_pages': m024,
};
