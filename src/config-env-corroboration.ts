import Type from 'typebox';
import type { CorroborationRule } from './sources/corroboration.js';
import type { SourceDescriptor } from './sources/define.js';

/** The per-deployment corroboration rules (docs/corroboration.md, "Configuring the rules"): part of EnvSchema. */
export const CORROBORATION_ENV = {
  SVC_CORROBORATION_RULES: Type.Optional(
    Type.String({
      minLength: 2,
      description:
        'corroborated price types: rules that replace the declared ones, a JSON object by type, each with any of quorum (sources that must agree), outlier_bps (distance from the median that makes an outlier) and stale_after_s (staleness cap), e.g. {"crypto-price":{"quorum":3}}; unset = the rules docs/corroboration.md lists',
    }),
  ),
};

/** The operator's replacements per type: any of the rule's fields (the quote is part of the type's contract). */
export type RuleOverrides = Record<string, Partial<Pick<CorroborationRule, 'quorum' | 'outlierBps' | 'staleAfterS'>>>;

const VARIABLE = 'SVC_CORROBORATION_RULES';
const EXAMPLE = '{"crypto-price":{"quorum":3,"outlier_bps":25,"stale_after_s":60}}';
type Field = 'quorum' | 'outlier_bps' | 'stale_after_s';
/** `max` of quorum is the type's number of sources: checked against the registry (corroborationProblems). */
const FIELDS: Record<Field, { key: keyof RuleOverrides[string]; integer: boolean; min: number; max: number }> = {
  quorum: { key: 'quorum', integer: true, min: 1, max: 100 },
  outlier_bps: { key: 'outlierBps', integer: false, min: 0.01, max: 10_000 },
  stale_after_s: { key: 'staleAfterS', integer: true, min: 1, max: 86_400 },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parsed(text: string, problems: string[]): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    problems.push(`${VARIABLE}: must be a JSON object such as ${EXAMPLE} (${(e as Error).message})`);
    return undefined;
  }
  if (isObject(value)) return value;
  problems.push(`${VARIABLE}: must be a JSON object by type, such as ${EXAMPLE}`);
  return undefined;
}

/** One field's value, or a problem naming the type, the field and what it takes. */
function fieldValue(type: string, name: string, value: unknown, problems: string[]): RuleOverrides[string] {
  const field = FIELDS[name as Field];
  const at = `${VARIABLE}: ${type}.${name}`;
  if (!field) {
    problems.push(`${at} is not a rule field (the fields are ${Object.keys(FIELDS).join(', ')})`);
    return {};
  }
  const ok = typeof value === 'number' && (!field.integer || Number.isInteger(value)) && value >= field.min && value <= field.max;
  if (ok) return { [field.key]: value };
  const kind = field.integer ? 'a whole number' : 'a number';
  problems.push(`${at}: must be ${kind} from ${field.min} to ${field.max} (got ${JSON.stringify(value)})`);
  return {};
}

/**
 * SVC_CORROBORATION_RULES → the fields the operator replaces, per type. Every problem is one sentence naming the
 * variable, the type and the field. Which types are corroborated, and how many sources each asks, is the registry's
 * to say: corroborationProblems checks that where the registry is at hand (the configuration never loads it).
 */
export function readCorroborationRules(text: string | undefined, problems: string[]): RuleOverrides {
  const overrides: RuleOverrides = {};
  for (const [type, fields] of Object.entries(text === undefined ? {} : (parsed(text, problems) ?? {}))) {
    if (!isObject(fields)) problems.push(`${VARIABLE}: ${type} must be an object of rule fields, such as {"quorum":3}`);
    else
      overrides[type] = Object.assign(
        {},
        ...Object.entries(fields).map(([name, value]) => fieldValue(type, name, value, problems)),
      ) as RuleOverrides[string];
  }
  return overrides;
}

type Corroborated = Pick<SourceDescriptor, 'type' | 'corroboration' | 'upstreams'>;

/** The overrides against the data types: each names a corroborated type, and a quorum no larger than its sources. */
export function corroborationProblems(overrides: RuleOverrides, descriptors: readonly Corroborated[]): string[] {
  const corroborated = descriptors.filter((d) => d.corroboration);
  return Object.entries(overrides).flatMap(([type, fields]) => {
    const descriptor = corroborated.find((d) => d.type === type);
    if (!descriptor) return [`${VARIABLE}: "${type}" is not a corroborated type (they are ${corroborated.map((d) => d.type).join(', ')})`];
    const sources = Object.keys(descriptor.upstreams).length;
    if (fields.quorum === undefined || fields.quorum <= sources) return [];
    return [
      `${VARIABLE}: ${type}.quorum: must be a whole number from 1 to ${sources} (${type} asks ${sources} sources) (got ${fields.quorum})`,
    ];
  });
}

/** The rule in effect for a corroborated type: its declared rule with the operator's fields in place. */
export const ruleInEffect = (declared: CorroborationRule, overrides: RuleOverrides, type: string): CorroborationRule => ({
  ...declared,
  ...overrides[type],
});
