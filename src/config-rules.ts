import Value from 'typebox/value';
import type { TSchema } from 'typebox';
import { BOOLEAN_RULE, parseBoolean } from './core/booleans.js';
import { EnvSchema, type Env } from './config-env.js';

/** The parts of a variable's schema (src/config-env.ts) that say which values it takes. */
export interface VariableSchema {
  type?: string;
  default?: string | number;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  anyOf?: { const?: unknown }[];
  /** A yes/no switch (see Flag): the words of core/booleans.ts. */
  boolean?: true;
  /** The rule of a patterned string in words, so no one reads a regular expression. */
  expected?: string;
  pattern?: string;
}

/**
 * The values a variable takes, in words, where its schema says more than its description: a yes/no
 * switch, a list of words, a number range. Empty for a free string. docs/configuration.md shows it
 * next to the description; a start-up error quotes it.
 */
export function ruleOf(schema: VariableSchema): string {
  if (schema.boolean) return BOOLEAN_RULE;
  if (schema.anyOf?.every((s) => s.const !== undefined)) return `one of ${schema.anyOf.map((s) => `\`${String(s.const)}\``).join(', ')}`;
  if (schema.type !== 'integer' && schema.type !== 'number') return '';
  const kind = schema.type === 'integer' ? 'an integer' : 'a number';
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `${kind} from ${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `${kind} of at least ${schema.minimum}`;
  return kind;
}

/** What a start-up error says a variable must be. */
export function expectationOf(schema: VariableSchema): string {
  return (
    ruleOf(schema) ||
    schema.expected ||
    (schema.pattern?.startsWith('^https?://') ? 'an http(s) URL' : '') ||
    (schema.minLength !== undefined ? `at least ${schema.minLength} characters` : `as docs/configuration.md describes it`)
  );
}

/** One sentence per variable set to a value it does not take, saying what it takes (its rule in words, never a regular expression). */
export function variableProblems(known: Record<string, string>, parsed: Env): string[] {
  return Object.entries(EnvSchema.properties as Record<string, VariableSchema & TSchema>).flatMap(([name, schema]) => {
    const given = known[name];
    if (given === undefined) return [];
    const valid = schema.boolean ? parseBoolean(given) !== undefined : Value.Check(schema, parsed[name as keyof Env]);
    return valid ? [] : [`${name}: must be ${expectationOf(schema)} (got "${given}")`];
  });
}

/** SVC_TRUST_PROXY: unset → trust no proxy; `2` → two hops; `10.0.0.0/8, 127.0.0.1` → those proxies only. */
export function parseTrustProxy(text: string | undefined): false | number | string[] {
  if (!text) return false;
  if (/^[0-9]+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
}
