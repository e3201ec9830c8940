import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeFetch } from '../../src/upstream/safe-fetch.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 11, finding 5: an upstream that answers at once but drips its body (one byte every 200 ms)
 * past the deadline is `upstream_timeout`, on the keyed-upstream client and on user-URL fetches alike.
 */
let drip: Server;
let dripUrl: string;
let t: TestApp;
beforeAll(async () => {
  drip = createServer((req, res) => {
    const html = req.url?.startsWith('/articles');
    res.writeHead(200, { 'content-type': html ? 'text/html' : 'application/json' });
    res.write(html ? '<html>' : '{');
    const timer = setInterval(() => res.write(' '), 200);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => drip.listen(0, '127.0.0.1', r));
  dripUrl = `http://127.0.0.1:${(drip.address() as AddressInfo).port}`;
  t = await startTestApp({
    // Every forex source drips: corroboration answers from any one that does not.
    env: { UPSTREAM_WEB_URL: dripUrl, UPSTREAM_FRANKFURTER_URL: dripUrl, UPSTREAM_OPEN_ER_API_URL: dripUrl, UPSTREAM_YAHOO_URL: dripUrl },
    deadlineCapMs: 1000,
  });
});
afterAll(async () => {
  await t.close();
  drip.closeAllConnections();
  drip.close();
});

const preview = (type: string, q: string) => t.app.inject({ url: '/api/data/preview', query: { type, q } });

describe('an upstream that drips its body past the deadline', () => {
  it('is upstream_timeout on the upstream client (forex), inside the deadline', async () => {
    const started = Date.now();
    const res = await preview('forex', 'EUR:USD');
    expect(res.json()).toMatchObject({ ok: false, error: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(1800);
  });

  it('is upstream_timeout from the upstream client itself, with no retry past the deadline', async () => {
    const started = Date.now();
    const error = await t.deps.upstream
      .host('frankfurter')
      .text('/v1/latest', { deadline: Date.now() + 600 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('is upstream_timeout from the user-URL fetcher itself, not an untyped abort error', async () => {
    const options = {
      deadline: Date.now() + 600,
      maxBytes: 1 << 20,
      maxRedirects: 0,
      accept: ['text/html'],
      userAgent: 'svc-test',
      ports: [Number(new URL(dripUrl).port)],
      allowAddress: () => true,
    };
    const error = await safeFetch(`${dripUrl}/articles/x`, options).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'upstream_timeout' });
  });

  it('is upstream_timeout on a user-URL fetch (scrape), inside the deadline', async () => {
    const started = Date.now();
    const res = await preview('scrape', 'https://news.example/articles/solar-record');
    expect(res.json()).toMatchObject({ ok: false, error: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(1800);
  });
});
