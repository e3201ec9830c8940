/**
 * MCP progress for a long tool call: when the client sent a `progressToken`, a notification when the
 * call starts, one every HEARTBEAT_MS while it runs, and one when it answers (progress always grows).
 */
export type Notify = (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>;

const HEARTBEAT_MS = 5_000;

export interface Progress {
  token: string | number;
  notify: Notify;
}

export async function withProgress<T>(progress: Progress | undefined, what: string, run: () => Promise<T>, outcome: (value: T) => string) {
  if (!progress) return run();
  let step = 0;
  const report = (message: string, done = false) =>
    progress
      .notify({
        method: 'notifications/progress',
        params: { progressToken: progress.token, progress: ++step, ...(done ? { total: step } : {}), message },
      })
      .catch(() => undefined); // a client that went away must not fail the call
  const started = Date.now();
  await report(`calling ${what}`);
  const heartbeat = setInterval(() => void report(`waiting for ${what} (${Math.round((Date.now() - started) / 1000)} s)`), HEARTBEAT_MS);
  try {
    const value = await run();
    await report(outcome(value), true);
    return value;
  } finally {
    clearInterval(heartbeat);
  }
}
