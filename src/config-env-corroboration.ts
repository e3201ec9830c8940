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

/** What the configuration needs to know of a corroborated type: its declared rule and how many sources it asks. */
interface CorroboratedType {
  type: string;
  rule: CorroborationRule;
  sources: number;
}

const corroboratedTypes = (descriptors: readonly Pick<SourceDescriptor, 'type' | 'corroboration' | 'upstreams'>[]): CorroboratedType[] =>
  descriptors.flatMap((d) =>
    d.corroboration ? [{ type: d.type, rule: d.corroboration.rule, sources: Object.keys(d.upstreams).length }] : [],
  );

const VARIABLE = 'SVC_CORROBORATION_RULES';
const EXAMPLE = '{"crypto-price":{"quorum":3,"outlier_bps":25,"stale_after_s":60}}';
type Field = 'quorum' | 'outlier_bps' | 'stale_after_s';
const FIELDS: Record<Field, { key: keyof CorroborationRule; integer: boolean; min: number; max: (t: CorroboratedType) => number }> = {
  quorum: { key: 'quorum', integer: true, min: 1, max: (t) => t.sources },
  outlier_bps: { key: 'outlierBps', integer: false, min: 0.01, max: () => 10_000 },
  stale_after_s: { key: 'staleAfterS', integer: true, min: 1, max: () => 86_400 },
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
function fieldValue(declared: CorroboratedType, name: string, value: unknown, problems: string[]): Partial<CorroborationRule> {
  const field = FIELDS[name as Field];
  const at = `${VARIABLE}: ${declared.type}.${name}`;
  if (!field) {
    problems.push(`${at} is not a rule field (the fields are ${Object.keys(FIELDS).join(', ')})`);
    return {};
  }
  const max = field.max(declared);
  const ok = typeof value === 'number' && (!field.integer || Number.isInteger(value)) && value >= field.min && value <= max;
  if (ok) return { [field.key]: value };
  const kind = field.integer ? 'a whole number' : 'a number';
  const why = name === 'quorum' ? ` (${declared.type} asks ${max} sources)` : '';
  problems.push(`${at}: must be ${kind} from ${field.min} to ${max}${why} (got ${JSON.stringify(value)})`);
  return {};
}

/**
 * SVC_CORROBORATION_RULES → the rule in effect for every corroborated type: the declared one, with the fields the
 * operator set replaced. Every problem is one sentence naming the variable, the type and the field.
 */
export function readCorroborationRules(
  text: string | undefined,
  descriptors: readonly Pick<SourceDescriptor, 'type' | 'corroboration' | 'upstreams'>[],
  problems: string[],
): Record<string, CorroborationRule> {
  const types = corroboratedTypes(descriptors);
  const rules = Object.fromEntries(types.map((t) => [t.type, t.rule]));
  const given = text === undefined ? undefined : parsed(text, problems);
  for (const [type, fields] of Object.entries(given ?? {})) {
    const declared = types.find((t) => t.type === type);
    if (!declared) {
      problems.push(`${VARIABLE}: "${type}" is not a corroborated type (they are ${types.map((t) => t.type).join(', ')})`);
    } else if (!isObject(fields)) {
      problems.push(`${VARIABLE}: ${type} must be an object of rule fields, such as {"quorum":3}`);
    } else {
      const overrides = Object.entries(fields).map(([name, value]) => fieldValue(declared, name, value, problems));
      rules[type] = Object.assign({ ...declared.rule }, ...overrides) as CorroborationRule;
    }
  }
  return rules;
}
