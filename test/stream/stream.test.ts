import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';
import { watchPlan } from '../../src/stream/watch.js';
import { registry } from '../../src/sources/registry.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';

interface Frame {
  id?: string;
  data?: Record<string, unknown>;
}

/** A minimal SSE client over fetch: collects frames until told to stop. */
async function open(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const frames: Frame[] = [];
  let text = '';
  let raw = '';
  const done = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        const piece = decoder.decode(chunk, { stream: true });
        raw += piece;
        text += piece;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const frame: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) frame.id = line.slice(4);
            if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
          }
          if (frame.data) frames.push(frame);
        }
      }
    } catch {
      // aborted
    }
  })();
  const until = async (predicate: () => boolean) => {
    for (let i = 0; i < 250 && !predicate(); i++) await new Promise((r) => setTimeout(r, 20));
    if (!predicate()) throw new Error(`timed out; got ${JSON.stringify(frames.map((f) => [f.data?.type, f.data?.q]))}`);
  };
  const stream = {
    res,
    frames,
    raw: () => raw,
    until,
    opened: () => until(() => raw.startsWith(': ok\n\n')),
    /** Waits until ticks of `type` (and `q`) arrived, and returns them. */
    ticksOf: async (type: string, q?: string) => {
      const match = () => frames.filter((f) => f.data?.type === type && (q === undefined || f.data?.q === q));
      await until(() => match().length > 0);
      return match();
    },
    close: async () => {
      controller.abort();
      await done;
    },
  };
  if (res.status === 200) await stream.opened();
  return stream;
}

/** A stream once a slot is free: a closed stream's slot is released when the server sees the socket close. */
async function openWhenFree(url: string) {
  for (const deadline = Date.now() + 5_000; ;) {
    const stream = await open(url);
    if (stream.res.status === 200 || Date.now() > deadline) return stream;
    await stream.close();
  }
}

/** Before a "nothing else arrived" assertion: the tick of a fresh answer, after which no earlier tick is on its way. */
async function sentinel(app: TestApp, stream: Awaited<ReturnType<typeof open>>, type: string, q: string) {
  const before = stream.frames.length;
  await app.app.inject({ url: '/api/data/preview', query: { type, q, max_age: '0' } });
  await stream.until(() => stream.frames.slice(before).some((f) => f.data?.type === type && f.data?.q === q));
}

describe.each(BUS_BACKENDS)('live stream on the %s bus', (bus) => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  beforeAll(async () => {
    const redisPrefix = uniqueName('stream');
    const env = { SVC_STREAM_WATCH: 'crypto-price,gas-prices-eth', SVC_STREAM_MAX_PER_IP: '3' };
    a = await startTestApp({ redis: bus === 'redis', redisPrefix, env });
    b = bus === 'redis' ? await startTestApp({ redis: true, redisPrefix, sim: a.sim, env }) : a;
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = b === a ? baseA : await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  it('publishes every fresh answer (preview, bundle, MCP, agent-context, poller) once as {type, q, ...row}, to every instance', async () => {
    const onB = await open(`${baseB}/api/data/stream`);
    expect(onB.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');

    expect((await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '40.71,-74.01' } })).statusCode).toBe(200);
    expect((await onB.ticksOf('weather'))[0]!.data).toMatchObject({ type: 'weather', q: '40.71,-74.01', source: 'open-meteo' });

    const bundle = await a.app.inject({
      method: 'POST',
      url: '/api/data/bundle',
      payload: { free: true, queries: [{ type: 'economic-indicator', q: 'DGS10' }] },
    });
    expect(bundle.statusCode).toBe(200);
    expect((await onB.ticksOf('economic-indicator'))[0]!.data).toMatchObject({ type: 'economic-indicator', q: 'DGS10' });

    const mcp = await fetch(`${baseA}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'query', arguments: { type: 'forex', q: 'EUR:USD' } },
      }),
    });
    expect(mcp.status).toBe(200);
    expect((await onB.ticksOf('forex'))[0]!.data).toMatchObject({ type: 'forex', q: 'EUR:USD' });

    const context = await a.app.inject({ url: '/api/v1/agent-context', query: { goal: 'Should I buy ETH this week?' } });
    expect(context.statusCode).toBe(200);
    expect((await onB.ticksOf('ta-indicators'))[0]!.data).toMatchObject({ type: 'ta-indicators' });

    await a.app.scheduler.tick(); // the poller: crypto-price and gas-prices-eth, each with its catalog example
    const prices = await onB.ticksOf('crypto-price', 'bitcoin,ethereum');
    expect(prices.map((f) => f.data)).toEqual([
      expect.objectContaining({ type: 'crypto-price', q: 'bitcoin,ethereum', coin: 'bitcoin', usd: 67188.12, source: 'coingecko' }),
      expect.objectContaining({ type: 'crypto-price', q: 'bitcoin,ethereum', coin: 'ethereum', usd: 3500.1 }),
    ]);
    await onB.ticksOf('gas-prices-eth');

    // Cached answers are not fresh: asking again publishes nothing new. A fresh answer after it is the sentinel: ticks
    // arrive in order, so once it is here anything the cached answer had published would be here too.
    const count = onB.frames.length;
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '40.71,-74.01' } });
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '52.52,13.4' } });
    await onB.ticksOf('weather', '52.52,13.4');
    expect(onB.frames.length).toBe(count + 1);
    expect(onB.raw()).not.toMatch(/^event:/m);
    expect(new Set(onB.frames.map((f) => f.id)).size).toBe(count + 1); // every tick once
    await onB.close();
  });

  it('greets a new client with the latest answer of every key it asked for, then filters live ticks by types and q', async () => {
    // The London answer has reached B (a probe saw its tick) before the clients below connect and are greeted with it.
    const probe = await open(`${baseB}/api/data/stream?types=weather&q=51.5,-0.12`);
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '51.5,-0.12' } });
    await probe.ticksOf('weather', '51.5,-0.12');
    await probe.close();
    const onlyWeather = await open(`${baseB}/api/data/stream?types=weather`);
    const london = await open(`${baseB}/api/data/stream?types=weather,crypto-price&q=51.5,-0.12`);
    await onlyWeather.ticksOf('weather', '51.5,-0.12');
    await onlyWeather.ticksOf('weather', '40.71,-74.01');
    await london.ticksOf('weather', '51.5,-0.12');
    await a.app.inject({ url: '/api/data/preview', query: { type: 'crypto-price', q: 'bitcoin', max_age: '0' } });
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '48.85,2.35' } });
    await onlyWeather.ticksOf('weather', '48.85,2.35');
    // The sentinel for both: a fresh London answer, after which no earlier tick can still be on its way.
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '51.5,-0.12', max_age: '0' } });
    const londonTicks = () => london.frames.filter((f) => f.data?.q === '51.5,-0.12');
    await london.until(() => londonTicks().length === 2);
    await onlyWeather.until(() => onlyWeather.frames.filter((f) => f.data?.q === '51.5,-0.12').length === 2);
    expect(new Set(onlyWeather.frames.map((f) => f.data?.type))).toEqual(new Set(['weather']));
    expect(new Set(london.frames.map((f) => `${String(f.data?.type)} ${String(f.data?.q)}`))).toEqual(new Set(['weather 51.5,-0.12']));
    await Promise.all([onlyWeather.close(), london.close()]);

    const everything = await open(`${baseA}/api/data/stream`);
    await everything.ticksOf('crypto-price', 'bitcoin');
    await everything.ticksOf('economic-indicator', 'DGS10');
    await everything.close();

    // q as the type writes it: crypto-price keys are lower case.
    const shouted = await open(`${baseA}/api/data/stream?types=crypto-price&q=BITCOIN`);
    await shouted.ticksOf('crypto-price', 'bitcoin');
    await sentinel(a, shouted, 'crypto-price', 'bitcoin');
    expect(new Set(shouted.frames.map((f) => f.data?.q))).toEqual(new Set(['bitcoin']));
    await shouted.close();
  });

  it('resumes from Last-Event-ID with exactly the ticks that followed it', async () => {
    const first = await open(`${baseA}/api/data/stream?types=weather`);
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '35.68,139.69' } });
    await a.app.inject({ url: '/api/data/preview', query: { type: 'weather', q: '-33.87,151.21' } });
    const [tokyo] = await first.ticksOf('weather', '35.68,139.69');
    await first.ticksOf('weather', '-33.87,151.21');
    await first.close();
    const resumed = await open(`${baseB}/api/data/stream?types=weather`, { 'last-event-id': tokyo!.id! });
    await resumed.ticksOf('weather', '-33.87,151.21');
    await sentinel(a, resumed, 'weather', '55.75,37.62');
    expect(resumed.frames.map((f) => f.data?.q)).toEqual(['-33.87,151.21', '55.75,37.62']);
    await resumed.close();
  });

  it('refuses an unknown type in the filter, and answers HEAD at once without taking a stream slot', async () => {
    const bad = await fetch(`${baseA}/api/data/stream?types=weather,nope`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'unknown_type', details: { field: 'types' } });
    for (let i = 0; i < 4; i++) {
      const head = await fetch(`${baseA}/api/data/stream`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    const streams = [await open(`${baseA}/api/data/stream`), await open(`${baseA}/api/data/stream`)];
    expect(streams.map((s) => s.res.status)).toEqual([200, 200]);
    await Promise.all(streams.map((s) => s.close()));
  });

  it('bounds anonymous concurrent streams per IP across instances and frees the slot on disconnect', async () => {
    // The streams of the test before may still hold their slots for a moment.
    const held = [
      await openWhenFree(`${baseA}/api/data/stream`),
      await openWhenFree(`${baseB}/api/data/stream`),
      await openWhenFree(`${baseA}/api/data/stream`),
    ];
    const fourth = await fetch(`${baseA}/api/data/stream`);
    expect(fourth.status).toBe(429);
    expect(await fourth.json()).toMatchObject({ error: 'rate_limited', details: { limit: 3 } });
    await held[0]!.close();
    const again = await openWhenFree(`${baseA}/api/data/stream`);
    expect(again.res.status).toBe(200);
    await Promise.all([again.close(), held[1]!.close(), held[2]!.close()]);
  });
});

describe('the watch list', () => {
  it('polls every type by default, each no more often than its TTL, a minute, or its upstream’s share', () => {
    const plan = watchPlan(registry, 'all');
    expect(plan.map((entry) => entry.type)).toEqual(registry.types());
    for (const entry of plan) {
      const descriptor = registry.get(entry.type)!;
      expect(entry.q).toBe(descriptor.example);
      expect(entry.everyS).toBeGreaterThanOrEqual(Math.max(descriptor.ttlSeconds, 60));
      const sharing = plan.filter((other) => other.host === entry.host).length;
      expect(entry.everyS).toBeGreaterThanOrEqual(60 * sharing);
    }
    expect(plan.find((entry) => entry.type === 'order-book')?.everyS).toBe(120); // TTL 5 s, but binance is shared with ta-indicators
    expect(plan.find((entry) => entry.type === 'flights-near')?.everyS).toBe(600); // TTL 30 s, but OpenSky's spacing is 600 s
    expect(watchPlan(registry, 'off')).toEqual([]);
    expect(watchPlan(registry, ['forex']).map((entry) => [entry.type, entry.q, entry.everyS])).toEqual([['forex', 'EUR:USD', 900]]);
  });

  it('reads SVC_STREAM_WATCH as unset (every type), a comma list of known types, or off', () => {
    expect(loadConfig({}).streamWatch).toBe('all');
    expect(loadConfig({ SVC_STREAM_WATCH: 'off' }).streamWatch).toBe('off');
    expect(loadConfig({ SVC_STREAM_WATCH: 'forex,weather' }).streamWatch).toEqual(['forex', 'weather']);
    expect(() => loadConfig({ SVC_STREAM_WATCH: 'crypto-price:bitcoin' })).toThrow(
      /SVC_STREAM_WATCH: must be off or a comma-separated list of data types/,
    );
  });

  it('refuses a type the registry does not know when the app is wired, before anything opens', async () => {
    await expect(createDeps(loadConfig({ SVC_STREAM_WATCH: 'forex,nope,weather,nada' }))).rejects.toThrow(
      'invalid configuration: SVC_STREAM_WATCH: unknown data type "nope", "nada"',
    );
  });

  it('is documented as it is: the table in docs/streams.md matches the plan', () => {
    const doc = readFileSync(new URL('../../docs/streams.md', import.meta.url), 'utf8');
    const row = /^\| `([a-z0-9-]+)` \| (?:`([^`]+)`|\(none\)) \| (\d+) \| ([a-z0-9-]+) \| (\d+) \|$/gm;
    const rows = [...doc.matchAll(row)].map((m) => [m[1], m[2] ?? '', Number(m[3]), m[4], Number(m[5])]);
    expect(rows).toEqual(watchPlan(registry, 'all').map((e) => [e.type, e.q, e.ttlS, e.host, e.everyS]));
  });
});
