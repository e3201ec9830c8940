import { describe, expect, it } from 'vitest';
import { createBus } from '../../src/bus/index.js';
import { ReplayHub, publishAnswer, publishBatch } from '../../src/stream/hub.js';

const settle = () => new Promise((r) => setImmediate(r));
const answer = (q: string, rows: number) => ({ type: 'weather', q, rows: Array.from({ length: rows }, (_, i) => ({ row: i })) });

describe('ReplayHub', () => {
  it('keeps the latest answer of each key within its tick budget, dropping the least recently updated keys', async () => {
    const bus = createBus(undefined);
    const hub = new ReplayHub(bus, 'ticks', { replay: 5, latest: 6 });
    await hub.start();
    await publishAnswer(bus, answer('a', 2));
    await publishAnswer(bus, answer('b', 2));
    await publishAnswer(bus, answer('a', 3)); // replaces a's two ticks and makes a the newest key
    await publishAnswer(bus, answer('c', 2)); // 2 + 3 + 2 > 6: b, the oldest, goes
    await settle();
    expect(hub.current().map((m) => `${String(m.data.q)}${String(m.data.row)}`)).toEqual(['a0', 'a1', 'a2', 'c0', 'c1']);
    await publishAnswer(bus, answer('huge', 7)); // larger than the whole budget: kept by no key
    await settle();
    expect(hub.current().map((m) => m.data.q)).not.toContain('huge');
    await hub.stop();
  });

  it('replays after a known id from a bounded buffer, and says so when the id is unknown or too old', async () => {
    const bus = createBus(undefined);
    const hub = new ReplayHub(bus, 'ticker', { replay: 3, latest: 0 });
    await hub.start();
    const ids: string[] = [];
    hub.listen((m) => ids.push(m.id));
    for (const n of [1, 2, 3, 4]) await publishBatch(bus, 'ticker', [{ n }]);
    await settle();
    expect(hub.replayAfter(ids[1])?.map((m) => m.data.n)).toEqual([3, 4]);
    expect(hub.replayAfter(ids[3])).toEqual([]);
    expect(hub.replayAfter(ids[0])).toBeUndefined(); // left the buffer of 3
    expect(hub.replayAfter('unknown')).toBeUndefined();
    expect(hub.replayAfter(undefined)).toBeUndefined();
    expect(hub.current()).toEqual([]); // nothing keyed on this channel
    await hub.stop();
  });

  it('frames each message once: every listener gets the same bytes, `id:` and one `data:` line', async () => {
    const bus = createBus(undefined);
    const hub = new ReplayHub(bus, 'ticks', { replay: 10, latest: 10 });
    await hub.start();
    const seen: Buffer[][] = [[], []];
    for (const frames of seen) hub.listen((m) => frames.push(m.frame.chunk));
    await publishAnswer(bus, { type: 'forex', q: 'EUR:USD', rows: [{ type: 'not mine', rate: 1.1 }] });
    await settle();
    expect(seen[1]![0]).toBe(seen[0]![0]);
    expect(seen[0]![0]!.toString()).toMatch(/^[0-9a-f]+\r\nid: \S+\ndata: \{"type":"forex","q":"EUR:USD","rate":1\.1\}\n\n\r\n$/);
    await hub.stop();
  });

  it('frames a message published while no client listened when a client first needs it, with the same bytes for the next', async () => {
    const bus = createBus(undefined);
    const hub = new ReplayHub(bus, 'ticks', { replay: 10, latest: 10 });
    await hub.start();
    await publishAnswer(bus, { type: 'weather', q: '1,2', rows: [{ temp_c: 3 }, { temp_c: 4 }] });
    await settle();
    const [first, second] = hub.current();
    expect(second!.frame.body.toString()).toBe(`id: ${second!.id}\ndata: {"type":"weather","q":"1,2","temp_c":4}\n\n`);
    expect(hub.replayAfter(first!.id)![0]!.frame).toBe(second!.frame);
    await hub.stop();
  });
});
