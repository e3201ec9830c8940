import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readSse, type SseMessage } from '../../packages/client/src/sse.js';
import { formatUsd } from '../../packages/client/src/index.js';

const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '1') }).filter((s) => !s.startsWith(' '));
const message = fc.record({
  id: fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined }),
  event: fc.option(fc.stringMatching(/^[a-z]{1,8}$/), { nil: undefined }),
  data: fc.array(line, { minLength: 1, maxLength: 3 }),
});

function serialize(m: { id?: string; event?: string; data: string[] }, eol: string): string {
  return (
    [
      ...(m.id === undefined ? [] : [`id: ${m.id}`]),
      ...(m.event === undefined ? [] : [`event: ${m.event}`]),
      ...m.data.map((d) => `data: ${d}`),
    ]
      .map((l) => l + eol)
      .join('') + eol
  );
}

/** The text cut at the given points into a byte stream (cuts may fall inside a UTF-8 character). */
function chunked(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts = [0, ...points, bytes.length].flatMap((start, i, all) => (i + 1 < all.length ? [bytes.slice(start, all[i + 1])] : []));
  return new ReadableStream({ start: (controller) => (parts.forEach((p) => controller.enqueue(p)), controller.close()) });
}

describe('SSE parser', () => {
  it('yields every message as sent, whatever the chunking, line ends or comments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom('\n', '\r\n'),
        async (messages, cuts, eol) => {
          const text = `: heartbeat${eol}${eol}` + messages.map((m) => serialize(m, eol)).join(`: comment${eol}`);
          const seen: SseMessage[] = [];
          for await (const m of readSse(chunked(text, cuts))) seen.push(m);
          expect(seen).toEqual(
            messages.map((m) => ({
              ...(m.id === undefined ? {} : { id: m.id }),
              ...(m.event === undefined ? {} : { event: m.event }),
              data: m.data.join('\n'),
            })),
          );
        },
      ),
    );
  });
});

describe('formatUsd', () => {
  it('prints atomic USDC units as dollars without losing a digit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (atomic) => {
        const text = formatUsd(atomic);
        expect(text).toMatch(/^\$\d+(\.\d{0,5}[1-9])?$/);
        const [whole, fraction = ''] = text.slice(1).split('.');
        expect(BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'))).toBe(atomic);
      }),
    );
    expect(formatUsd(4_990_000n)).toBe('$4.99');
    expect(formatUsd(1000n)).toBe('$0.001');
  });
});
