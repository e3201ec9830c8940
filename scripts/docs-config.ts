/**
 * Regenerates the variable table of docs/configuration.md from the configuration schema (src/config-env.ts), so the
 * documentation cannot drift: `npm run docs:config`. A test fails when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { EnvSchema } from '../src/config-env.js';
import { ruleOf, type VariableSchema } from '../src/config-rules.js';

export const CONFIGURATION_DOC = new URL('../docs/configuration.md', import.meta.url);

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function configTable(): string {
  const rows = Object.entries(EnvSchema.properties as Record<string, VariableSchema>).map(([name, schema]) => {
    const byDefault = schema.default === undefined ? '—' : `\`${String(schema.default)}\``;
    const rule = ruleOf(schema);
    const meaning = [schema.description ?? '', rule ? `(${rule})` : ''].filter(Boolean).join(' ');
    return `| \`${name}\` | ${cell(byDefault)} | ${cell(meaning)} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The document with the table replaced between its `<!-- config-table:start -->` / `<!-- config-table:end -->` markers. */
export const renderConfigTable = (text: string): string =>
  text.replace(/(<!-- config-table:start -->)[\s\S]*?(<!-- config-table:end -->)/, `$1\n${configTable()}\n$2`);

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(CONFIGURATION_DOC, renderConfigTable(readFileSync(CONFIGURATION_DOC, 'utf8')));
}
