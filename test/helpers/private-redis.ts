import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { freePort } from './ports.js';

/** True when something answers PING on the port. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.on('error', () => resolve(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => (socket.destroy(), resolve(data.toString().startsWith('+PONG'))));
  });
}

/**
 * A redis-server of the test's own on a free port, to pause (SIGSTOP), resume and kill without
 * touching the Redis every other suite shares. `start()` again after `kill()` brings it back on the
 * same port, empty.
 */
export class PrivateRedis {
  private child?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !(await answersPing(this.port)); i++) await new Promise((r) => setTimeout(r, 50));
  }

  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
