import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

/** How many times the document's row schemas (the part that reads every upstream fixture) were built. */
const rowBuilds = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/plugins/openapi-rows.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/plugins/openapi-rows.js')>();
  return {
    ...original,
    rowComponents: (...args: Parameters<typeof original.rowComponents>) => {
      rowBuilds.count += 1;
      return original.rowComponents(...args);
    },
  };
});

const apps: TestApp[] = [];
const start = async () => {
  const t = await startTestApp();
  apps.push(t);
  return t;
};
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

describe('The OpenAPI document, built on first request', () => {
  it('is not built at start-up, and is built once however many ask for it at the same time', async () => {
    const t = await start();
    const before = rowBuilds.count;
    expect(before).toBe(0);
    const answers = await Promise.all([
      t.app.inject('/openapi.json'),
      t.app.inject('/openapi.json'),
      t.app.inject('/docs/json'),
      t.app.inject('/.well-known/mcp.json'),
      t.app.inject('/openapi.json'),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(rowBuilds.count).toBe(1);
    const [first, second, , , fifth] = answers;
    expect(second!.body).toBe(first!.body);
    expect(fifth!.body).toBe(first!.body);
    expect(first!.json().components.schemas.Row.anyOf.length).toBeGreaterThan(10);
  });

  it('is the same document whether it is built at once or after the app has served other requests', async () => {
    const eager = await start();
    const right = (await eager.app.inject('/openapi.json')).body;

    const late = await start();
    for (const url of ['/healthz', '/api/data/preview?type=crypto-price&q=bitcoin', '/api/catalog', '/.well-known/mcp.json'])
      await late.app.inject(url);
    const built = (await late.app.inject('/openapi.json')).body;
    expect(built).toBe(right);
    expect(JSON.parse(built).paths['/api/data/preview']).toBeDefined();
  });
});
