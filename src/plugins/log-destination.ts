import pino from 'pino';

/** sonic-boom in buffer mode takes Buffers; its type declares strings only. */
type BufferDestination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(chunk: Buffer): boolean };

/**
 * stdout for JSON log lines: pino's own destination (sonic-boom, asynchronous: lines logged while a write is under way
 * go out together in the next one; what is pending is written at exit), in its buffer mode. In its default mode it
 * keeps the pending lines as one string and measures that string's UTF-8 length again on every line (up to 16 KB,
 * flattened each time), then encodes each batch twice; in buffer mode a line is encoded once, its length added.
 */
export function stdoutLogDestination(): { write(line: string): void; flush(done?: (error?: Error) => void): void } {
  const destination = pino.destination({ dest: process.stdout.fd, contentMode: 'buffer' }) as unknown as BufferDestination;
  return {
    // Looked up on every line: on EPIPE pino's handler replaces the destination's write with a no-op.
    write: (line) => void destination.write(Buffer.from(line)),
    flush: (done) => destination.flush(done),
  };
}
