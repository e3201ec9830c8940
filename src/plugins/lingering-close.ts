import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long, and how many bytes, the unread tail of a refused body is drained after the answer (nginx's lingering close). */
const LINGER_MS = 1000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * For an answer sent before the request body was read to its end (a 413 on the declared length, a
 * refused upload): the connection must close, or Node would read the whole unread body to reach the
 * next request. Closing a socket with unread bytes sends a reset, which can destroy the answer
 * before the client reads it; so the close is a half-close, then a bounded drain until the client
 * hangs up. Does nothing when the body has been read.
 */
export function lingerIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (request.raw.complete) return;
  reply.header('connection', 'close');
  const socket = reply.raw.socket;
  if (!socket) return;
  // Node calls destroySoon once a `connection: close` answer is written.
  socket.destroySoon = () => {
    request.raw.resume();
    lingerThenClose(socket);
  };
}

function lingerThenClose(socket: Socket): void {
  let drained = 0;
  const close = () => socket.destroy();
  socket.end();
  socket.on('end', close).on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) close();
  });
  socket.resume();
  setTimeout(close, LINGER_MS).unref();
}
