import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Feeds, Watcher, frameOf, type SessionMessage } from '../../src/agent-session/fanout.js';
import { createBus } from '../../src/bus/index.js';

const message = (seq: number, kind = 'log', text = `event ${seq}`): SessionMessage => ({
  session_id: 'as_x',
  seq,
  kind,
  text,
  ts: seq,
  screenshot_url: null,
});
const seqsIn = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

/** A client that never reads: everything written stays in the stream's buffer. */
const stalled = () => new PassThrough({ highWaterMark: 1024 });
const drain = (out: PassThrough) => {
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
};

describe('Watcher', () => {
  it('drops a live watcher whose unsent bytes pass the bound, without waiting for it', () => {
    const out = stalled();
    const watcher = new Watcher(out, 0, 10_000);
    watcher.goLive();
    for (let seq = 1; seq <= 100 && !watcher.isClosed; seq++) watcher.deliver(seq, frameOf(message(seq, 'log', 'x'.repeat(500))), false);
    expect(watcher.isClosed).toBe(true);
    expect(out.destroyed).toBe(true);
    expect(out.writableLength).toBeLessThan(10_000 + 1000);
  });

  it('queues live messages during the replay and writes each seq once, in order', async () => {
    const out = new PassThrough();
    const written = drain(out);
    const watcher = new Watcher(out, 2);
    watcher.deliver(5, frameOf(message(5)), false); // arrives while the replay is written
    watcher.deliver(6, frameOf(message(6)), false);
    await watcher.replay([message(2), message(3), message(4), message(5)]);
    watcher.goLive();
    watcher.deliver(6, frameOf(message(6)), false);
    watcher.deliver(7, frameOf(message(7, 'end', 'ended')), true);
    watcher.deliver(8, frameOf(message(8)), false);
    await new Promise((r) => setImmediate(r));
    expect(seqsIn(written())).toEqual([3, 4, 5, 6, 7]);
    expect(out.writableEnded).toBe(true);
  });
});

describe('Feeds', () => {
  it('fills a gap from the store when a later message overtakes an earlier one on the bus', async () => {
    const bus = createBus(undefined);
    const stored = [message(1), message(2), message(3)];
    const loads: [number, number][] = [];
    const feeds = new Feeds(
      bus,
      async () => 0,
      async (_id, after, upto) => {
        loads.push([after, upto]);
        return stored.filter((m) => m.seq > after && m.seq <= upto);
      },
    );
    const out = new PassThrough();
    const written = drain(out);
    const watcher = new Watcher(out, 0);
    const leave = await feeds.join('as_x', watcher);
    watcher.goLive();
    await bus.publish('agent-session:as_x', message(3));
    await bus.publish('agent-session:as_x', message(1));
    await bus.publish('agent-session:as_x', message(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(seqsIn(written())).toEqual([1, 2, 3]);
    expect(loads).toEqual([[0, 2]]);
    leave();
    await feeds.close();
  });
});
