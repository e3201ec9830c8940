import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caddyLogLines, sleep, startCaddy } from '../helpers/deployment.js';
import { freePort, listenOnLoopback } from '../helpers/ports.js';

/**
 * The docs' Caddyfile with one instance out (its /readyz answers 503, as while it drains or starts): every POST must
 * reach the other instance. Debian's Caddy (2.6.2) answers a POST that finds "no upstreams available" with an empty
 * 503 at once (later versions retry it within lb_try_duration), and its round_robin policy can find none while one
 * instance is healthy: two requests that advance its shared counter between each other's two picks both land on the
 * instance that is out. That failed a POST of the drill's rolling restart in CI; with stand-ins as here it refuses about
 * one POST in 8,000 (24 of 200,000). The docs now set `lb_policy least_conn`, which picks among the available
 * instances only. Stand-in upstreams, so the load is Caddy's selection alone: none of 200,000 POSTs may be refused.
 */
const POSTS = 200_000;
const CONCURRENCY = 64;

/** A stand-in svc instance: `/readyz` answers 200 or 503; every other request 200, counted. */
function standIn(ready: boolean) {
  const served = { posts: 0 };
  const server = createServer((request, response) => {
    if (request.url === '/readyz') return response.writeHead(ready ? 200 : 503).end();
    request.resume();
    request.on('end', () => {
      served.posts++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return { server, served };
}

describe("the docs' Caddyfile with one instance out", () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-caddy-'));
  const up = standIn(true);
  const out = standIn(false);
  let caddy: ChildProcess;
  let base = '';

  beforeAll(async () => {
    const ports: [number, number] = [await listenOnLoopback(up.server), await listenOnLoopback(out.server)];
    const listen = await freePort();
    caddy = startCaddy(dir, listen, ports);
    base = `http://127.0.0.1:${listen}`;
    // Barrier: Caddy's active check has seen the instance that is out answer 503.
    for (const until = Date.now() + 30_000; !caddyLogLines(dir, `"host":"127.0.0.1:${ports[1]}"`).length; await sleep(100))
      if (Date.now() > until) throw new Error(`Caddy never checked the instance that is out:\n${caddyLogLines(dir, '').join('\n')}`);
  });

  afterAll(async () => {
    caddy?.kill('SIGTERM');
    if (caddy && caddy.exitCode === null) await once(caddy, 'exit');
    await Promise.all([up.server, out.server].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it(`${POSTS} POSTs, ${CONCURRENCY} at a time: every one reaches the instance that is in`, async () => {
    const statuses = new Map<number, number>();
    const pool = new Pool(base, { connections: CONCURRENCY });
    let sent = 0;
    const client = async () => {
      while (sent++ < POSTS) {
        const { statusCode, body } = await pool.request({
          method: 'POST',
          path: '/api/agent-session/start',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        await body.dump();
        statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    await pool.close();
    const refusals = caddyLogLines(dir, 'no upstreams available');
    expect(Object.fromEntries(statuses), refusals.slice(0, 3).join('\n')).toEqual({ 200: POSTS });
    expect({ in: up.served.posts, out: out.served.posts }).toEqual({ in: POSTS, out: 0 });
  }, 120_000);
});
