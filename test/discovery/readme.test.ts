import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** README and every page under docs/: the documentation as a whole. */
const DOCS = new URL('../../docs/', import.meta.url);
const documentation = [
  readme,
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(new URL(f, DOCS), 'utf8')),
].join('\n');

describe('README stays current', () => {
  it('documents every environment variable', () => {
    const missing = Object.keys(EnvSchema.properties).filter((name) => !documentation.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('gives the two commands and the demo, in at most 300 lines', () => {
    expect(readme).toContain('npm ci && npm run demo');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });
});
