import { ApiError } from './errors.js';

/**
 * The one rule for yes/no values, in environment variables, query parameters and headers alike:
 * these words in any case. Anything else is refused, never read as "no": `readonly=TRUE` once
 * turned MCP's read-only mode off.
 */
const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

export const BOOLEAN_WORDS = [...TRUE_WORDS, ...FALSE_WORDS];
export const BOOLEAN_RULE = `1, true, yes or on for yes; 0, false, no or off for no (any case)`;

/** true, false, or undefined for a spelling that is neither. */
export function parseBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : undefined;
}

/** A yes/no query parameter or header: undefined when absent, a 400 naming `field` when spelled otherwise. */
export function booleanParam(value: string | undefined, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  const parsed = parseBoolean(value);
  if (parsed === undefined)
    throw new ApiError('validation_failed', `${field} must be ${BOOLEAN_RULE}; got "${value.slice(0, 40)}"`, {
      field,
      rule: 'boolean',
      allowed: BOOLEAN_WORDS,
    });
  return parsed;
}
