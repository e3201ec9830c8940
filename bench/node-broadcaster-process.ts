/**
 * The Node floor of the fan-out benchmark: a bare `node:http` server that holds every subscriber's
 * response and writes one pre-framed chunk straight to each socket per published message. No
 * framework, no store, no auth: what any Node service pays for 10,000 SSE clients, measured next to
 * svc and nchan so svc's own share of the time and memory shows. Subscribers GET /sub, the
 * publisher POSTs `{"seq":N}` to /pub. Argument: the port; runs until killed.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Frame } from '../src/stream/sse.js';

const port = Number(process.argv[2]);
const sockets = new Set<Socket>();

const subscribe = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(': ok\n\n');
  const socket = res.socket!;
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
};

createServer((req, res) => {
  if (req.url === '/sub') return subscribe(res);
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const frame = new Frame(`data: ${body}\n\n`);
    for (const socket of sockets) socket.write(frame.chunk);
    res.end();
  });
}).listen(port, '127.0.0.1');
