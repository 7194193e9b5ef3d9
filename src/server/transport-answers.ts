/**
 * Answers for what never reaches the request handler: HTTP CONNECT (which Node hands to a `connect`
 * listener, and without one drops the connection unanswered) and requests the HTTP parser refuses
 * (oversized headers, malformed request lines). Every client gets a status line before the connection
 * closes, as from Kubernetes' Go server.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors } from '../machinery/errors.js';

/** How long a refused connection is drained before it is cut, so the client reads the answer. */
const DRAIN_MS = 500;

/**
 * Sends `head` (and `body`), half-closes, and reads whatever the client still sends until it closes
 * or DRAIN_MS pass. Closing with unread bytes would make the kernel reset the connection, and a reset
 * can discard the answer before the client has read it.
 */
function answerAndClose(socket: Duplex, head: string, body = ''): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  socket.on('error', () => socket.destroy());
  socket.on('data', () => undefined);
  socket.resume();
  socket.end(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export function answerOutsideHandlers(http: Server): void {
  http.on('connect', (_req, socket: Duplex) => {
    const body = JSON.stringify(errors.methodNotAllowed().status);
    answerAndClose(socket, 'HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json', body);
  });
  http.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const line =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HTTP/1.1 431 Request Header Fields Too Large'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'HTTP/1.1 408 Request Timeout'
          : 'HTTP/1.1 400 Bad Request';
    answerAndClose(socket, line);
  });
}
