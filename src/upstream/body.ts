import type { Readable } from 'node:stream';
import { UpstreamError } from './errors.js';

/**
 * Drops a response body we will not read. undici reports the early end as an 'error' event
 * (RequestAbortedError); without a listener that event would crash the process.
 */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Reads a body as UTF-8, giving up (and dropping the connection) once it passes `maxBytes`. */
export async function readCapped(body: Readable, maxBytes: number, tooLarge: () => UpstreamError): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
