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

const HEADER_CHARSET = /;\s*charset\s*=\s*"?([\w.:-]+)"?/i;
/** `<?xml version="1.0" encoding="ISO-8859-1" ?>`: feeds often declare their charset here and not in the header. */
const XML_ENCODING = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i;

/** The charset the response declares: its Content-Type parameter, else an XML declaration; UTF-8 when neither names a known one. */
export function declaredCharset(bytes: Buffer, contentType: string | undefined): string {
  const declared = HEADER_CHARSET.exec(contentType ?? '')?.[1] ?? XML_ENCODING.exec(bytes.subarray(0, 256).toString('latin1'))?.[1];
  if (!declared) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8';
  }
}

/** Text of a body in its declared charset (WHATWG labels: `ISO-8859-1` decodes as windows-1252, its superset). */
export const decodeBody = (bytes: Buffer, contentType?: string): string =>
  new TextDecoder(declaredCharset(bytes, contentType)).decode(bytes);

/** Reads a body as text in its declared charset, giving up (and dropping the connection) once it passes `maxBytes`. */
export async function readCapped(body: Readable, maxBytes: number, tooLarge: () => UpstreamError, contentType?: string): Promise<string> {
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
  return decodeBody(Buffer.concat(chunks), contentType);
}
