import { createServer, connect, type Server, type Socket } from 'node:net';
import { listenOnLoopback } from './ports.js';

/**
 * A TCP proxy between svc and a database that can misbehave the way networks do:
 * - `delay(ms)`: every chunk, both ways, arrives `ms` late (order kept);
 * - `reset()`: open connections are reset (RST) and new ones are reset as soon as they connect;
 * - `refuse()`: nothing listens (ECONNREFUSED) and open connections are cut, as when the server restarts;
 * - `blackHole()`: connections stay open but nothing gets through either way, and new ones are
 *   accepted but never reach the database; what was sent arrives after `heal()`, as TCP's
 *   retransmissions would deliver it after a network black hole.
 * `heal()` ends any fault.
 */
export class FaultProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private delayMs = 0;
  private resetting = false;
  /** Resolved while traffic flows; pending during a black hole. */
  private flowing: Promise<void> = Promise.resolve();
  private endBlackHole?: () => void;

  /** 0 until the first listen, which takes any free port; after a `refuse()` the proxy listens on that port again. */
  private port = 0;

  private constructor(private readonly target: URL) {}

  static async start(target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(target));
    await proxy.listen();
    return proxy;
  }

  /** The target's URL with the proxy in its place. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  delay(ms: number): void {
    this.delayMs = ms;
  }

  reset(): void {
    this.resetting = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  async refuse(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  blackHole(): void {
    this.flowing = new Promise((resolve) => (this.endBlackHole = resolve));
  }

  async heal(): Promise<void> {
    this.delayMs = 0;
    this.resetting = false;
    this.endBlackHole?.();
    this.flowing = Promise.resolve();
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.heal();
    await this.refuse();
  }

  private async listen(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    this.port = await listenOnLoopback(this.server, this.port);
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.resetting) return void client.resetAndDestroy();
    client.pause();
    void this.flowing.then(() => {
      if (client.destroyed) return;
      const upstream = this.track(connect(Number(this.target.port || 5432), this.target.hostname));
      this.forward(client, upstream);
      this.forward(upstream, client);
      client.resume();
    });
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => this.sockets.delete(socket));
    return socket;
  }

  /** Each chunk is written once its delay is over and the way is open, after the chunks before it. */
  private forward(from: Socket, to: Socket): void {
    let queue = Promise.resolve();
    from.on('data', (chunk) => {
      const due = Date.now() + this.delayMs;
      queue = queue.then(async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        await this.flowing;
        if (!to.destroyed) to.write(chunk);
      });
    });
    from.on('close', () => void queue.then(() => to.destroy()));
  }
}
