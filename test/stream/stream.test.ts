import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BUS_BACKENDS, uniqueName } from '../helpers/backends.js';

interface Frame {
  id?: string;
  data?: Record<string, unknown>;
}

/** A minimal SSE client over fetch: collects frames until told to stop. */
async function open(base: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/data/stream`, { headers, signal: controller.signal });
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
  const waitFor = async (n: number) => {
    for (let i = 0; i < 100 && frames.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    return frames;
  };
  return {
    res,
    frames,
    raw: () => raw,
    waitFor,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

describe.each(BUS_BACKENDS)('live stream on the %s bus', (bus) => {
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  beforeAll(async () => {
    const redisPrefix = uniqueName('stream');
    a = await startTestApp({
      redis: bus === 'redis',
      redisPrefix,
      env: { SVC_STREAM_WATCH: 'crypto-price:bitcoin,ethereum', SVC_STREAM_MAX_PER_IP: '2' },
    });
    b =
      bus === 'redis'
        ? await startTestApp({
            redis: true,
            redisPrefix,
            sim: a.sim,
            env: { SVC_STREAM_WATCH: 'crypto-price:bitcoin,ethereum', SVC_STREAM_MAX_PER_IP: '2' },
          })
        : a;
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = b === a ? baseA : await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  it('streams ticks {type, ...fields} to clients of every instance and resumes from Last-Event-ID', async () => {
    const onA = await open(baseA);
    const onB = await open(baseB);
    expect(onA.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    for (const stream of [onA, onB]) for (let i = 0; i < 100 && !stream.raw(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(onA.raw()).toBe(': ok\n\n');
    await a.app.scheduler.tick();
    const framesB = await onB.waitFor(2);
    expect(framesB.map((f) => f.data)).toEqual([
      expect.objectContaining({ type: 'crypto-price', coin: 'bitcoin', usd: 67187.34, source: 'coingecko' }),
      expect.objectContaining({ type: 'crypto-price', coin: 'ethereum', usd: 3500.1 }),
    ]);
    expect((await onA.waitFor(2)).map((f) => f.id)).toEqual(framesB.map((f) => f.id));
    expect(onA.raw()).not.toMatch(/^event:/m);
    await onA.close();
    await onB.close();

    const resumed = await open(baseB, { 'last-event-id': framesB[0]!.id! });
    expect((await resumed.waitFor(1)).map((f) => f.data?.coin)).toEqual(['ethereum']);
    await resumed.close();
  });

  it('answers HEAD at once with the stream headers and takes no stream slot', async () => {
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${baseA}/api/data/stream`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    }
    const [first, second] = [await open(baseA), await open(baseA)]; // the per-IP cap of 2 is still free
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    await Promise.all([first.close(), second.close()]);
    await new Promise((r) => setTimeout(r, 100));
  });

  it('bounds anonymous concurrent streams per IP across instances and frees the slot on disconnect', async () => {
    const first = await open(baseA);
    const second = await open(baseB);
    const third = await fetch(`${baseA}/api/data/stream`);
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ error: 'rate_limited', details: { limit: 2 } });
    await first.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await open(baseA);
    expect(again.res.status).toBe(200);
    await again.close();
    await second.close();
  });
});
