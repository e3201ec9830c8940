import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, renderConfigTable } from '../../scripts/docs-config.js';
import { EnvSchema } from '../../src/config-env.js';

const doc = readFileSync(CONFIGURATION_DOC, 'utf8');

describe('docs/configuration.md', () => {
  it('carries the variable table as generated from the configuration schema (npm run docs:config)', () => {
    expect(renderConfigTable(doc)).toBe(doc);
  });

  it('has a row for every variable, with its default and its rule', () => {
    const row = (name: string) => doc.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
    for (const name of Object.keys(EnvSchema.properties)) expect(row(name), name).toBeDefined();
    expect(row('PORT')).toBe('| `PORT` | `8080` | HTTP port (an integer from 0 to 65535) |');
    expect(row('LOG_LEVEL')).toContain('one of `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`');
    expect(row('DATABASE_URL')).toContain('| — |');
  });

  it('a stale table is caught: a changed description changes the rendering', () => {
    const stale = doc.replace('| `PORT` | `8080` | HTTP port', '| `PORT` | `8080` | the port');
    expect(stale).not.toBe(doc);
    expect(renderConfigTable(stale)).toBe(doc);
  });
});
