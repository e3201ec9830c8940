import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Feeds, Watcher, frameOf, type SessionMessage } from '../../src/agent-session/fanout.js';
import { createBus } from '../../src/bus/index.js';
import { EventStream } from '../../src/stream/sse.js';
import { BackgroundErrors } from '../../src/core/background.js';

const message = (seq: number, kind = 'log', text = `event ${seq}`): SessionMessage => ({
  session_id: 'as_x',
  kind,
  text,
  screenshot_b64: null,
  ts: seq,
  seq,
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
    const watcher = new Watcher(new EventStream(out), 0, false, 10_000);
    watcher.goLive();
    for (let seq = 1; seq <= 100 && !watcher.isClosed; seq++) watcher.deliver(seq, frameOf(message(seq, 'log', 'x'.repeat(500))), false);
    expect(watcher.isClosed).toBe(true);
    expect(out.destroyed).toBe(true);
    expect(out.writableLength).toBeLessThan(10_000 + 1000);
  });

  it('queues live messages during the replay and writes each seq once, in order', async () => {
    const out = new PassThrough();
    const written = drain(out);
    const watcher = new Watcher(new EventStream(out), 2, true);
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
  it('writes the final end event only to a watcher that asked for state, and closes both', async () => {
    const plain = new PassThrough();
    const stateful = new PassThrough();
    const [plainText, statefulText] = [drain(plain), drain(stateful)];
    const watchers = [new Watcher(new EventStream(plain), 0, false), new Watcher(new EventStream(stateful), 0, true)];
    for (const watcher of watchers) {
      watcher.goLive();
      watcher.deliver(1, frameOf(message(1)), false);
      watcher.deliver(2, frameOf(message(2, 'end', 'ended')), true);
    }
    await new Promise((r) => setImmediate(r));
    expect(seqsIn(plainText())).toEqual([1]);
    expect(seqsIn(statefulText())).toEqual([1, 2]);
    expect(statefulText()).toContain('"kind":"end","text":"ended","screenshot_b64":null,"ts":2,"seq":2,"state":{"status":"ended"}}');
    expect([plain.writableEnded, stateful.writableEnded]).toEqual([true, true]);
  });
});

describe('Feeds', () => {
  const quiet = new BackgroundErrors(() => undefined);

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
      quiet,
    );
    const out = new PassThrough();
    const written = drain(out);
    const watcher = new Watcher(new EventStream(out), 0, false);
    const leave = await feeds.join('as_x', watcher);
    watcher.goLive();
    await bus.publish('agent-session:as_x', message(3));
    await bus.publish('agent-session:as_x', message(1));
    await bus.publish('agent-session:as_x', message(2));
    await expect.poll(() => seqsIn(written())).toEqual([1, 2, 3]);
    expect(loads).toEqual([[0, 2]]);
    leave();
    await feeds.close();
  });

  it('survives a gap it cannot read (the database away): counted, and the next message delivers the gap', async () => {
    const bus = createBus(undefined);
    const stored = [message(1), message(2), message(3)];
    const failures: string[] = [];
    let databaseAway = true;
    const feeds = new Feeds(
      bus,
      async () => 0,
      async (_id, after, upto) => {
        if (databaseAway) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return stored.filter((m) => m.seq > after && m.seq <= upto);
      },
      new BackgroundErrors((job) => failures.push(job)),
    );
    const out = new PassThrough();
    const written = drain(out);
    const watcher = new Watcher(new EventStream(out), 0, false);
    const leave = await feeds.join('as_x', watcher);
    watcher.goLive();
    await bus.publish('agent-session:as_x', message(2)); // overtakes 1, whose read fails: before, an unhandled rejection
    await expect.poll(() => failures).toEqual(['session-feed']);
    expect(seqsIn(written())).toEqual([]);
    databaseAway = false;
    await bus.publish('agent-session:as_x', message(3));
    await expect.poll(() => seqsIn(written())).toEqual([1, 2, 3]);
    leave();
    await feeds.close();
  });

  it('frames a broadcast once: every watcher is written the very same Buffer', async () => {
    const bus = createBus(undefined);
    const feeds = new Feeds(
      bus,
      async () => 0,
      async () => [],
      quiet,
    );
    const written: unknown[][] = [[], []];
    const outs = written.map((chunks) => {
      const out = new PassThrough();
      const write = out.write.bind(out);
      out.write = ((chunk: unknown, ...rest: never[]) => (chunks.push(chunk), write(chunk as Buffer, ...rest))) as typeof out.write;
      out.resume();
      return out;
    });
    const leaves = [];
    for (const out of outs) {
      const watcher = new Watcher(new EventStream(out), 0, false);
      leaves.push(await feeds.join('as_y', watcher));
      watcher.goLive();
    }
    await bus.publish('agent-session:as_y', message(1));
    await expect.poll(() => written[0]).toHaveLength(1);
    expect(written[0]![0]).toBeInstanceOf(Buffer);
    expect(written[1]![0]).toBe(written[0]![0]);
    for (const leave of leaves) leave();
    await feeds.close();
  });
});
