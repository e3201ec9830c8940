import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createOlympics } from '../../src/olympics/routes.js';

describe('olympics without panel models', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 model_unavailable on every route and opens no events', async () => {
    expect(await (await createOlympics(t.app, t.deps)).openDue()).toBe(0);
    for (const url of [
      '/api/v1/olympics/events',
      '/api/v1/olympics/events/oly_000000000000000000000000',
      '/api/v1/olympics/medals',
      '/api/v1/olympics/ticker',
    ]) {
      const response = await t.app.inject(url);
      expect(response.statusCode, url).toBe(503);
      expect(response.json(), url).toMatchObject({ error: 'model_unavailable', details: { role: 'panel' } });
    }
    expect(await t.deps.store.db.selectFrom('olympics_events').selectAll().execute()).toEqual([]);
  });

  it('still serves the scoreboard page, with a strict CSP and its assets', async () => {
    const page = await t.app.inject('/olympics');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect((await t.app.inject('/assets/olympics.js')).body).toContain('model_unavailable');
    expect((await t.app.inject('/assets/olympics.css')).statusCode).toBe(200);
  });

  it('validates the query before anything else', async () => {
    const queries: Record<string, string>[] = [{ mode: 'both' }, { limit: '101' }, { discipline: 'Crypto!' }];
    for (const query of queries) {
      const response = await t.app.inject({ url: '/api/v1/olympics/events', query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json().error).toBe('validation_failed');
    }
  });
});
