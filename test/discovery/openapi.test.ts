import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('OpenAPI', () => {
  it('is a valid OpenAPI 3.0.3 document at version 6.8.0 with every route tagged', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('6.8.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      for (const [method, op] of Object.entries(ops)) expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
  });

  it('documents the type enum from the registry and the receipt signing input', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const type = doc.paths['/api/data/preview'].get.parameters.find((p: { name: string }) => p.name === 'type');
    expect(type.schema.enum).toHaveLength(43);
    expect(doc.info.description).toContain('JCS(receipt without sig)');
  });

  it('serves an API reference page at /docs', async () => {
    const res = await t.app.inject('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger-ui');
    const init = await t.app.inject('/docs/static/swagger-initializer.js');
    expect(init.statusCode).toBe(200);
  });
});
