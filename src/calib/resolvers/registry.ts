import { Compile } from 'typebox/compile';
import { ApiError } from '../../core/errors.js';
import type { Registry } from '../../sources/registry.js';
import type { ResolverDescriptor } from './define.js';
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

/** A 400 naming the first bad config field (as outcome_resolver.config.<path>), then the resolver's own checks. */
export function checkResolver(resolver: { type: string; config: Record<string, unknown> }, registry: Registry): void {
  const entry = byType.get(resolver.type);
  if (!entry)
    throw new ApiError('validation_failed', `outcome_resolver.type must be one of ${RESOLVER_TYPES.join(', ')}`, {
      field: 'outcome_resolver.type',
    });
  const error = [...entry.validator.Errors(resolver.config)].find((e) => e.keyword !== 'boolean');
  if (error) {
    const missing = (error.params as { requiredProperties?: string[]; additionalProperties?: string[] }).requiredProperties?.[0];
    const path = [error.instancePath.replace(/^\//, '').replace(/\//g, '.'), missing].filter(Boolean).join('.');
    const field = `outcome_resolver.config${path ? `.${path}` : ''}`;
    throw new ApiError('validation_failed', `${field} ${error.message}`, { field, rule: error.keyword, ...error.params });
  }
  entry.descriptor.check?.(resolver.config, registry);
}
