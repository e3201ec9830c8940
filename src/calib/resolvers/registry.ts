import { Compile } from 'typebox/compile';
import { ApiError } from '../../core/errors.js';
import type { Registry } from '../../sources/registry.js';
import type { ResolverDescriptor } from './define.js';
import type { OutcomeSource } from '../../store/schema.js';
import manual from './manual.js';
import priceAbove from './price-above.js';
import priceBelow from './price-below.js';
import valueAbove from './value-above.js';
import valueBelow from './value-below.js';
import eventOccurred from './event-occurred.js';
import shieldExploit from './shield-exploit.js';
import topGainer from './top-gainer.js';

/** Every outcome resolver, explicitly listed: the single source of the claim schema's enum and its docs. */
const RESOLVERS: ResolverDescriptor[] = [
  manual,
  priceAbove,
  priceBelow,
  valueAbove,
  valueBelow,
  eventOccurred,
  shieldExploit,
  topGainer,
] as ResolverDescriptor[];

const byType = new Map(RESOLVERS.map((r) => [r.type, { descriptor: r, validator: Compile(r.config) }]));

export const RESOLVER_TYPES = RESOLVERS.map((r) => r.type);

export const resolverOf = (type: string): ResolverDescriptor | undefined => byType.get(type)?.descriptor;

/** Each resolver's rule and config schema, for the OpenAPI description of outcome_resolver. */
export const RESOLVER_DOCS = RESOLVERS.map((r) => `**${r.type}**: ${r.rule} config: \`${JSON.stringify(r.config)}\``).join('\n\n');

/** Whether svc runs a resolver of this type (and stores its answer as a verified outcome). */
export const runsResolver = (type: string): boolean => resolverOf(type)?.resolve !== undefined;

/**
 * How a claim's outcome is decided, as the record_claim and record_outcome answers state it. A type svc does not run
 * (manual, or any other string) is stored as given; its outcome is the agent's to report.
 */
export function resolverStatus(type: string, outcome: 'pending' | OutcomeSource) {
  const runs = runsResolver(type);
  const notRun = `svc does not run ${type} resolvers`;
  const note = {
    pending: runs
      ? `svc runs its ${type} resolver at expected_resolution_at (a verified outcome) unless record_outcome resolves the claim first (self-reported)`
      : `${notRun}: stored as given; report the outcome with record_outcome (self-reported)`,
    self_reported: runs
      ? `resolved by record_outcome (self-reported): svc's ${type} resolver no longer runs for this claim`
      : `${notRun}: the outcome is self-reported`,
    verified: 'resolved by svc (a verified outcome)',
  }[outcome];
  return { type, run_by_svc: runs && outcome === 'pending', note };
}

/**
 * For a type svc knows: a 400 naming the first bad config field (as outcome_resolver.config.<path>), then the
 * resolver's own checks. Any other type is a free string (spec: `{type: string, config: object}`) stored as given.
 */
export function checkResolver(resolver: { type: string; config: Record<string, unknown> }, registry: Registry): void {
  const entry = byType.get(resolver.type);
  if (!entry) return;
  const error = [...entry.validator.Errors(resolver.config)].find((e) => e.keyword !== 'boolean');
  if (error) {
    const missing = (error.params as { requiredProperties?: string[]; additionalProperties?: string[] }).requiredProperties?.[0];
    const path = [error.instancePath.replace(/^\//, '').replace(/\//g, '.'), missing].filter(Boolean).join('.');
    const field = `outcome_resolver.config${path ? `.${path}` : ''}`;
    throw new ApiError('validation_failed', `${field} ${error.message}`, { field, rule: error.keyword, ...error.params });
  }
  entry.descriptor.check?.(resolver.config, registry);
}
