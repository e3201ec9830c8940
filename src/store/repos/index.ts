import type { Kysely } from 'kysely';
import type { Engine } from '../db.js';
import type { DB } from '../schema.js';
import { AgentSessionsRepo } from './agent-sessions.js';
import { AgentsRepo } from './agents.js';
import { AnswerPagesRepo } from './answer-pages.js';
import { ApiKeysRepo } from './api-keys.js';
import { ArenaRepo } from './arena.js';
import { CalibProRepo } from './calib-pro.js';
import { CalibrationRepo } from './calibration.js';
import { ClusterRepo } from './cluster.js';
import { IdempotencyRepo } from './idempotency.js';
import { ConstitutionalRepo } from './constitutional.js';
import { LeaseRepo } from './leases.js';
import { OlympicsRepo } from './olympics.js';
import { PaymentsRepo } from './payments.js';
import { PortfolioRepo } from './portfolio.js';
import { ShieldRepo } from './shield.js';
import { SnapshotRepo } from './snapshots.js';
import { SourceHistoryRepo } from './source-history.js';
import { TlogRepo } from './tlog.js';
import { ViralRepo } from './viral.js';

/** Every repository over one database, built once in createDeps and injected into the services that need them. */
export function createRepos(db: Kysely<DB>, engine: Engine) {
  return {
    agentSessions: new AgentSessionsRepo(db),
    agents: new AgentsRepo(db),
    answerPages: new AnswerPagesRepo(db),
    apiKeys: new ApiKeysRepo(db),
    arena: new ArenaRepo(db),
    calibPro: new CalibProRepo(db),
    calibration: new CalibrationRepo(db),
    cluster: new ClusterRepo(db),
    constitutional: new ConstitutionalRepo(db),
    idempotency: new IdempotencyRepo(db),
    leases: new LeaseRepo(db),
    olympics: new OlympicsRepo(db),
    payments: new PaymentsRepo(db),
    portfolio: new PortfolioRepo(db),
    shield: new ShieldRepo(db),
    snapshots: new SnapshotRepo(db),
    sourceHistory: new SourceHistoryRepo(db),
    tlog: new TlogRepo(db, engine),
    viral: new ViralRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
