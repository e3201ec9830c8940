import { describe, expect, it } from 'vitest';
import { DecodeQueue } from '../../src/core/images.js';

/** A decode the test finishes when it wants, to see who runs meanwhile. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('image decode queue', () => {
  it('runs at most its slots at once, the rest in turn, and refuses past its waiting room with a 503', async () => {
    const queue = new DecodeQueue(2, 3);
    let running = 0;
    let most = 0;
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      queue.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await expect(queue.run(async () => 'late')).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(await queue.run(async () => 'after')).toBe('after');
  });

  it('passes the turn on when a decode fails', async () => {
    const queue = new DecodeQueue(1, 1);
    const failing = queue.run(() => Promise.reject(new Error('corrupt')));
    const next = queue.run(async () => 'next');
    await expect(failing).rejects.toThrow('corrupt');
    expect(await next).toBe('next');
  });
});
