import { once } from 'node:events';
import { createServer, type Server } from 'node:net';

/**
 * The one way tests get ports. An in-process server listens on port 0 and reads the port the kernel gave it
 * (`listenOnLoopback`): nothing can take it in between. Only what must be told its port before it starts (a spawned
 * service, redis-server, nginx, an app whose public URL names its port) takes `freePort()`, which is free when
 * returned and can in principle be taken before it is used: callers that can retry on EADDRINUSE do.
 */
export async function listenOnLoopback(server: Server, port = 0): Promise<number> {
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

/** A TCP port on loopback that was free a moment ago (taken and released at once). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listenOnLoopback(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export const isAddressInUse = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
