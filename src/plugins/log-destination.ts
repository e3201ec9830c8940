import pino from 'pino';

/** sonic-boom in buffer mode takes Buffers; its type declares strings only. */
type BufferDestination = Omit<ReturnType<typeof pino.destination>, 'write'> & { write(chunk: Buffer): boolean };

/**
 * stdout for JSON log lines: pino's own destination (sonic-boom) in its buffer mode (a line is encoded once), written
 * synchronously, as Node's own stdout does for pipes and files. The first line of a turn of the event loop is written
 * at once; the lines logged after it in the same turn (a busy server's request lines) are written together, in one
 * system call, when the turn ends (`setImmediate`) or the process exits. A write per line cost ~25 µs of a ~100 µs
 * cached preview under 50 connections on a slow machine; a write per turn cost 2.2 µs a line there (bench/README.md).
 *
 * Tried before and not kept (test/core/log-destination.test.ts guards both): asynchronous writes (the thread pool's),
 * whose lines pending at exit overtook a batch still in flight under a slow reader of stdout; and batches flushed every
 * 100 ms, which held a start-up line back past the moment a test read it. A line here waits at most for the end of its
 * turn, before the loop polls for the next requests, and a lone line goes out at once. A reader that stops reading
 * holds the process back instead of growing its memory; a kill -9 loses at most the lines of the turn it interrupts.
 */
export function stdoutLogDestination(): { write(line: string): void; flush(done?: (error?: Error) => void): void } {
  const destination = pino.destination({ dest: process.stdout.fd, contentMode: 'buffer', sync: true }) as unknown as BufferDestination;
  let rest: Buffer[] = [];
  let turnStarted = false;
  const writeRest = () => {
    turnStarted = false;
    if (rest.length === 0) return;
    const lines = Buffer.concat(rest);
    rest = [];
    // Looked up on every write: on EPIPE pino's handler replaces the destination's write with a no-op.
    destination.write(lines);
  };
  process.on('exit', writeRest);
  return {
    write: (line) => {
      if (turnStarted) return void rest.push(Buffer.from(line));
      turnStarted = true;
      setImmediate(writeRest);
      destination.write(Buffer.from(line));
    },
    flush: (done) => {
      writeRest();
      destination.flush(done);
    },
  };
}
