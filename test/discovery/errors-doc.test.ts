import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_DOC, renderErrorTables } from '../../scripts/docs-errors.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { FAILURE_REASONS } from '../../src/upstream/errors.js';
import { startTestApp } from '../helpers/app.js';

const doc = readFileSync(API_DOC, 'utf8');
const row = (name: string) => doc.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));

describe('docs/api.md', () => {
  it('carries the error tables as generated from the error codes and failure reasons (npm run docs:errors)', () => {
    expect(renderErrorTables(doc)).toBe(doc);
  });

  it('has a row for every error code with its status, and for every failure reason', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(row(code), code).toBeDefined();
    for (const reason of Object.keys(FAILURE_REASONS)) expect(row(reason), reason).toBeDefined();
    expect(row('rate_limited')).toMatch(/^\| `rate_limited` \| 429 \| .*Retry-After/);
    expect(row('region_blocked')).toContain('451');
  });

  it('a stale table is caught: a changed meaning changes the rendering', () => {
    const stale = doc.replace('| `no_upstream` | no upstream', '| `no_upstream` | nothing');
    expect(stale).not.toBe(doc);
    expect(renderErrorTables(stale)).toBe(doc);
  });
});

it('the OpenAPI description explains every error code and failure reason', async () => {
  const t = await startTestApp();
  try {
    const { description } = (await t.app.inject('/openapi.json')).json().info as { description: string };
    for (const [code, { status, meaning }] of Object.entries(ERROR_CODES))
      expect(description).toContain(`| \`${code}\` | ${status} | ${meaning}`);
    for (const [reason, meaning] of Object.entries(FAILURE_REASONS)) expect(description).toContain(`| \`${reason}\` | ${meaning}`);
  } finally {
    await t.close();
  }
});
