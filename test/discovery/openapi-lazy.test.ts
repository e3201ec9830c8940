import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { appsClosedAfterEach } from '../helpers/app.js';

/** The app logs one line when it builds the document (the part that reads every upstream fixture): counted here. */
const BUILT = 'OpenAPI document built on its first request';
const buildsLogged = (lines: string[]) => lines.filter((line) => (JSON.parse(line) as { msg?: string }).msg === BUILT).length;

const startApp = appsClosedAfterEach();
const start = (lines: string[] = []) =>
  startApp({
    logStream: new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    }),
  });

describe('The OpenAPI document, built on first request', () => {
  it('is not built at start-up, and is built once however many ask for it at the same time', async () => {
    const lines: string[] = [];
    const t = await start(lines);
    expect(buildsLogged(lines)).toBe(0);
    const answers = await Promise.all([
      t.app.inject('/openapi.json'),
      t.app.inject('/openapi.json'),
      t.app.inject('/docs/json'),
      t.app.inject('/.well-known/mcp.json'),
      t.app.inject('/openapi.json'),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(buildsLogged(lines)).toBe(1);
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
