/** Runs the compiled bench/session-fanout.ts (server and watchers in their own processes) with 10,000 watchers; target p99 < 50 ms. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WATCHERS = 10_000;
const EVENTS = 10;

export function sessionFanout(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL('./session-fanout.js', import.meta.url));
    const child = spawn(process.execPath, [script, String(WATCHERS), String(EVENTS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ ...(JSON.parse(out) as Record<string, unknown>), target_p99_ms: 50 })
        : reject(new Error(`session-fanout exited with ${code}`)),
    );
  });
}
