import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpstreamSetting } from '../config.js';
import { systemClock, type Clock } from '../core/clock.js';
import { HOSTS, type HostName, type HostSpec, type KeySpec } from '../upstream/hosts.js';
import { fixtureExchanges, loadFixtures, type Exchange, type Fault, type Fixture } from '../upstream/fixtures.js';
import { DemoWorld } from './world.js';
import { Reply } from './world/types.js';
import type { Perturbation } from './perturb.js';

/**
 * The loopback upstream simulator: serves upstream exchanges from the fixture files by host + method + path
 * (base URLs become `http://127.0.0.1:<port>/<host>`), injects faults per host, and counts hits. Tests and
 * the offline demo (SVC_DEMO=1) both use it; in demo mode the demo world (world.ts) answers instead, at the
 * simulator clock's time or at the instant a `/@<unix ms>/<host>` base URL names (history recorded at start-up).
 */
const emptied = (value: unknown): unknown => {
  if (Array.isArray(value)) return [];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const hasArray = JSON.stringify(value).includes('[');
    return hasArray ? Object.fromEntries(entries.map(([k, v]) => [k, emptied(v)])) : {};
  }
  return value;
};

function matchScore(exchange: Exchange, method: string, path: string, params: URLSearchParams, body: string): number {
  if ((exchange.method ?? 'GET') !== method || exchange.path !== path) return -1;
  if (exchange.body_contains !== undefined && !body.includes(exchange.body_contains)) return -1;
  const wanted = Object.entries(exchange.query ?? {});
  const matched = wanted.filter(([k, v]) => params.get(k) === v).length;
  return matched === wanted.length ? 1 + matched : 0;
}

interface Hit {
  host: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface DemoOptions {
  /** The world is the same for the same seed. */
  seed: number;
  clock: Clock;
  /** Upstreams the world answers wrongly (SVC_DEMO_PERTURB). */
  perturb?: Map<string, Perturbation>;
}

/** A key for a keyed host in the demo, in the form its kind needs (token hosts take `id:secret`). */
const demoKey = (key: KeySpec) => (key.in === 'token' ? 'demo-id:demo-secret' : 'demo-key');
/** Hosts that serve a model, not a data type: the demo leaves them unconfigured (the demo models answer instead). */
const NOT_DATA: readonly string[] = ['llm'];
const AT_INSTANT = /^\/@(\d{10,13})(\/.*)$/;

export class Simulator {
  private server?: Server;
  private readonly exchanges: Exchange[];
  private readonly world?: DemoWorld;
  private readonly overrides: Exchange[] = [];
  private readonly faults = new Map<string, Fault>();
  private readonly hitLog: Hit[] = [];
  private readonly open = new Set<ServerResponse>();
  url = '';

  constructor(
    fixtures: Fixture[],
    private readonly demo?: DemoOptions,
  ) {
    this.exchanges = fixtures.flatMap(fixtureExchanges);
    if (demo) this.world = new DemoWorld(demo.seed, fixtures, demo.perturb);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Upstream settings pointing every host at this simulator, keys kept. In demo mode keyed data hosts without a key
   * get a demo key (the world answers as if it were set), and `atMs` makes the world answer as of that instant.
   */
  pointAt(upstreams: Record<HostName, UpstreamSetting>, atMs?: number): Record<HostName, UpstreamSetting> {
    const base = atMs === undefined ? this.url : `${this.url}/@${Math.floor(atMs)}`;
    const keyOf = (name: string, s: UpstreamSetting) => {
      const spec: HostSpec = HOSTS[name as HostName];
      return s.key ?? (this.demo && spec.key && !NOT_DATA.includes(name) ? demoKey(spec.key) : undefined);
    };
    return Object.fromEntries(
      Object.entries(upstreams).map(([name, s]) => [name, { ...s, baseUrl: `${base}/${name}`, key: keyOf(name, s) }]),
    ) as Record<HostName, UpstreamSetting>;
  }

  /** Environment variables that point every host here and give keyed hosts a dummy key. */
  env(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, spec] of Object.entries(HOSTS)) {
      const upper = name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
      env[`UPSTREAM_${upper}_URL`] = `${this.url}/${name}`;
      if ('key' in spec) env[`UPSTREAM_${upper}_KEY`] = 'sim-key';
    }
    return env;
  }

  fault(host: string, fault: Fault): void {
    this.faults.set(host, fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Serve this exchange instead of the recorded one (data that moved); undone by `clearOverrides`. */
  serve(exchange: Exchange): void {
    this.overrides.unshift(exchange);
  }

  clearOverrides(): void {
    this.overrides.length = 0;
  }

  hits(host?: string, path?: string): number {
    return this.requests(host, path).length;
  }

  /** The requests a host received, oldest first (headers included: tests check what was sent). */
  requests(host?: string, path?: string): Hit[] {
    return this.hitLog.filter((h) => (!host || h.host === host) && (!path || h.path === path));
  }

  resetHits(): void {
    this.hitLog.length = 0;
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    const instant = AT_INSTANT.exec(url.pathname);
    const [, host = '', ...rest] = (instant?.[2] ?? url.pathname).split('/');
    const path = `/${rest.join('/')}`;
    this.hitLog.push({ host, path, query: url.search, headers: req.headers });
    const perturbed = this.world?.perturbation(host);
    const fault: Fault | undefined = perturbed?.kind === 'status' ? { kind: 'status', status: perturbed.status } : this.faults.get(host);
    if (fault?.kind === 'hang') {
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      return;
    }
    if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers }).end(fault.body ?? '{"error":"simulated"}');
      return;
    }
    const body = await readBody(req);
    if (this.demo && this.world) {
      const nowS = Math.floor((instant ? Number(instant[1]) : this.demo.clock.now()) / 1000);
      const reply = this.worldAnswer({ host, method: req.method ?? 'GET', path, params: url.searchParams, body, nowS });
      if (reply) return this.respond(res, { host, path, status: reply.status, headers: reply.headers, body: reply.body }, fault);
    }
    const exchange = this.find(host, req.method ?? 'GET', path, url.searchParams, body);
    if (!exchange) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no recorded exchange', host, path }));
      return;
    }
    this.respond(res, exchange, fault);
  }

  /** A world that cannot answer a request answers 500, as an upstream would: the simulator itself never fails. */
  private worldAnswer(request: Parameters<DemoWorld['answer']>[0]): Reply | undefined {
    try {
      return this.world!.answer(request);
    } catch (e) {
      return new Reply(500, { error: 'demo world', message: (e as Error).message });
    }
  }

  private find(host: string, method: string, path: string, params: URLSearchParams, body: string): Exchange | undefined {
    let best: Exchange | undefined;
    let bestScore = -1;
    for (const e of [...this.overrides, ...this.exchanges]) {
      if (e.host !== host) continue;
      const match = matchScore(e, method, path, params, body);
      const score = match < 0 ? -1 : match + (this.overrides.includes(e) ? 100 : 0);
      if (score > bestScore) [best, bestScore] = [e, score];
    }
    return bestScore >= 0 ? best : undefined;
  }

  private respond(res: ServerResponse, exchange: Exchange, fault: Fault | undefined): void {
    const body = fault?.kind === 'empty' ? (exchange.empty_body ?? emptied(exchange.body)) : exchange.body;
    let text = typeof body === 'string' ? body : JSON.stringify(body);
    if (fault?.kind === 'malformed') text = `{"oops": ${text.slice(0, 20)}`;
    if (fault?.kind === 'truncated') text = text.slice(0, Math.floor(text.length / 2));
    if (fault?.kind === 'oversize') text = `${text}${' '.repeat(fault.bytes)}`;
    const contentType =
      typeof body === 'string'
        ? text.trimStart().startsWith('<')
          ? 'text/html; charset=utf-8'
          : 'text/plain; charset=utf-8'
        : 'application/json';
    res.writeHead(exchange.status ?? 200, { 'content-type': contentType, ...exchange.headers });
    res.end(exchange.charset ? Buffer.from(text, exchange.charset) : text);
  }
}

/** SVC_DEMO=1: start the simulator in-process with every fixture, times moved to today and generated series. */
export async function startDemoSimulator(seed: number, clock: Clock = systemClock): Promise<Simulator> {
  return new Simulator(loadFixtures(), { seed, clock }).start();
}
