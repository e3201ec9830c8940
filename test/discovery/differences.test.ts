import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let paths: Record<string, Record<string, { description?: string }>>;
beforeAll(async () => {
  t = await startTestApp();
  paths = (await t.app.inject('/openapi.json')).json().paths;
});
afterAll(() => t.close());

const MARK = 'Difference from the interface description:';

/** The doc's section: `### title`, the sentence, `Operations: \`METHOD /path\`, …`. */
function documented(): { sentence: string; operations: string[] }[] {
  const doc = readFileSync(new URL('../../docs/differences.md', import.meta.url), 'utf8');
  const section = doc.split('## Differences from the interface description')[1] ?? '';
  return section
    .split(/^### .*$/m)
    .slice(1)
    .map((block) => {
      const sentence = block.split('\n').find((line) => line.startsWith(MARK)) ?? '';
      const operations = [...(block.match(/^Operations: (.*)$/m)?.[1] ?? '').matchAll(/`([A-Z]+ [^`]+)`/g)].map((m) => m[1]!);
      return { sentence, operations };
    });
}

/** Fastify's `/a/:id` is OpenAPI's `/a/{id}`. */
const descriptionOf = (operation: string) => {
  const [method, path] = operation.split(' ') as [string, string];
  return paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]?.description;
};

describe('docs/differences.md and the OpenAPI descriptions', () => {
  it('list the same deliberate differences, sentence for sentence, on the same operations', () => {
    const list = documented();
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const { sentence, operations } of list) {
      expect(sentence, 'every difference states its sentence').not.toBe('');
      expect(operations.length, sentence).toBeGreaterThan(0);
      for (const operation of operations) expect(descriptionOf(operation), operation).toContain(sentence);
    }
    // And no operation states a difference the doc does not list for it.
    for (const [path, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const operation = `${method.toUpperCase()} ${path}`;
        const stated = (op.description ?? '').split(MARK).slice(1);
        const listed = list.filter((d) => d.operations.includes(operation));
        expect(stated.length, operation).toBe(listed.length);
      }
    }
  });

  it('names the differences the service is known for', () => {
    const sentences = documented().map((d) => d.sentence);
    expect(sentences.find((s) => s.includes('session_token') && s.includes('agent_key'))).toBeDefined();
    expect(sentences.find((s) => s.includes('1-query bundle'))).toBeDefined();
    expect(sentences.find((s) => s.includes('empty reliability bin') && s.includes('`null`'))).toBeDefined();
  });
});
