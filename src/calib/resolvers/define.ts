import type { Static, TSchema } from 'typebox';
import type { Registry } from '../../sources/registry.js';
import type { SourceRunner } from '../../sources/runner.js';

export interface ResolverContext {
  runner: SourceRunner;
  /** The claim being resolved: when it was recorded (Unix ms) and when it is due (Unix s). */
  claim: { created_at: number; expected_resolution_at: number };
}

export interface Resolution {
  outcome: 0 | 1;
  /** What svc saw, stored with the outcome so anyone can re-check it. */
  evidence: Record<string, unknown>;
}

/**
 * One way a claim's outcome is decided, in one file. svc runs `resolve` when the claim is due and
 * stores its answer as a verified outcome; a resolver without `resolve` (manual) leaves the outcome
 * to the agent's record_outcome.
 */
export interface ResolverDescriptor<S extends TSchema = TSchema> {
  type: string;
  /** The rule, as the OpenAPI document states it. */
  rule: string;
  /** The config's schema; checked when the claim is recorded (400 naming the field). */
  config: S;
  /** Checks the schema cannot express (e.g. that a data type exists); throws a 400 naming the field. */
  check?(config: Static<S>, registry: Registry): void;
  /** The outcome now, or undefined when the data to decide it is unavailable (retried until the grace period ends). */
  resolve?: (config: Static<S>, ctx: ResolverContext) => Promise<Resolution | undefined>;
}

export const defineResolver = <S extends TSchema>(descriptor: ResolverDescriptor<S>): ResolverDescriptor<S> => descriptor;
