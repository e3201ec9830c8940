import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { lazily } from '../../src/plugins/lazy-serializers.js';
import { appsClosedAfterEach } from '../helpers/app.js';

/** Fastify's serializer factory, noting each serializer it builds as `<method> <url> <status>`. */
const recording = (built: string[]): SerializerFactory => {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      built.push(`${route.method} ${route.url} ${route.httpStatus}`);
      return compile(route);
    };
  };
};

const startApp = appsClosedAfterEach();
const start = (buildSerializer: SerializerFactory) => startApp({ buildSerializer });

describe('Response serializers (issue 39: built on first use)', () => {
  it('are built on a route’s first answer, once, not at start-up, and answer as the ones built at start', async () => {
    const built: string[] = [];
    const lazy = await start(lazily(recording(built)));
    expect(built).toEqual([]);
    const first = await lazy.app.inject('/healthz');
    const second = await lazy.app.inject('/healthz');
    expect(built).toEqual(['GET /healthz 200']);
    const eager = await start(SerializerSelector());
    const atStart = await eager.app.inject('/healthz');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.body).toBe(atStart.body);
    expect(second.body).toBe(atStart.body);
  });

  it('build for every route’s response schemas (so none fails on its first answer)', async () => {
    const built: string[] = [];
    await start(recording(built));
    expect(built.length).toBeGreaterThan(100);
    expect(built).toEqual(expect.arrayContaining(['GET /healthz 200', 'GET /healthz 503', 'GET /api/agent-session/stream 200']));
  });
});
