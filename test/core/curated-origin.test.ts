import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import { citation, Origin } from '../../src/core/curated.js';

const SRC = join(import.meta.dirname, '../../src');

/**
 * Versioned data files (`<name>.v<N>.json`): curated files served as rows, and evaluation sets (`eval/`: labelled texts
 * written for svc, so their origin names who wrote them and when instead of an outside URL). Fixtures and OpenAPI
 * examples are neither.
 */
const versionedFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return versionedFiles(path);
    return /\.v\d+\.json$/.test(e.name) ? [relative(SRC, path)] : [];
  });
const isEvalSet = (file: string) => file.split('/').includes('eval');
const curatedFiles = (dir: string) => versionedFiles(dir).filter((f) => !isEvalSet(f));

describe('curated data files', () => {
  const files = curatedFiles(SRC);
  const check = Compile(Origin);

  it('are found where the service ships them', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'entities/entities.v1.json',
        'viral/niches.v1.json',
        'cams/cams.v1.json',
        'sources/data/token-unlock.v2.json',
      ]),
    );
  });

  it.each(files)('%s states its origin: publisher, https URLs and a retrieval date', (file) => {
    const { origin } = JSON.parse(readFileSync(join(SRC, file), 'utf8')) as { origin?: unknown };
    expect(check.Check(origin), `${file} has no valid origin`).toBe(true);
    expect(citation(origin as Origin)).toMatch(/^.+; https:\/\/\S+.*; retrieved \d{4}-\d{2}-\d{2}$/);
  });

  it.each(versionedFiles(SRC).filter(isEvalSet))('%s states who wrote it, when and how', (file) => {
    const { origin } = JSON.parse(readFileSync(join(SRC, file), 'utf8')) as { origin?: Record<string, unknown> };
    expect(origin).toMatchObject({
      publisher: expect.stringMatching(/\S/),
      where: expect.stringMatching(/\S/),
      method: expect.stringMatching(/\S/),
    });
    expect(origin?.written).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses an origin without a publisher, a URL or a date', () => {
    const good = { publisher: 'svc maintainers', urls: ['https://example.org/list'], retrieved: '2026-11-23' };
    expect(check.Check(good)).toBe(true);
    expect(check.Check({ ...good, publisher: '' })).toBe(false);
    expect(check.Check({ ...good, urls: [] })).toBe(false);
    expect(check.Check({ ...good, urls: ['from memory'] })).toBe(false);
    expect(check.Check({ ...good, retrieved: 'last year' })).toBe(false);
  });
});
