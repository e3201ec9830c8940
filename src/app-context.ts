import type { CursorCodec } from './core/cursor.js';
import type { Deps } from './deps.js';
import type { PaymentGate } from './payments/gate.js';
import type { Job } from './scheduler/scheduler.js';
import type { Protection } from './protection/service.js';
import type { EntityGraph } from './entities/graph.js';

/** What feature route plugins receive: the shared dependencies plus cross-feature services. */
export interface AppContext {
  deps: Deps;
  cursors: CursorCodec;
  /** Translates `entity=` into the q of a type. */
  entityToQ: (type: string, entityId: string, q: string | undefined) => Promise<string>;
  /** The canonical entity graph. */
  entities: EntityGraph;
  /** Verifies payments for paid routes and issues 402 challenges. */
  payments: PaymentGate;
  /** Background jobs a feature wants run (once across instances, under a store lease). */
  jobs: Job[];
  /** API keys, rate limits and abuse blocks. */
  protection: Protection;
}
