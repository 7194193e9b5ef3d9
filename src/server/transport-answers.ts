/**
 * Answers for what never reaches the request handler: HTTP CONNECT (which Node hands to a `connect`
 * listener, and without one drops the connection unanswered) and requests the HTTP parser refuses
 * (oversized headers, malformed request lines). Every client gets a status line before the connection
 * closes, as from Kubernetes' Go server.
 */
import type { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { errors } from '../machinery/errors.js';

/** How long a refused connection is drained before it is cut: enough for a client still sending a large body. */
const DRAIN_MS = 5_000;

/**
 * Sends `head` (and `body`), half-closes, and reads whatever the client still sends until it closes
 * or DRAIN_MS pass. Closing with unread bytes would make the kernel reset the connection, and a reset
 * can discard the answer before the client has read it.
 */
/** Connections being drained: the parser reports an error again for every chunk that still arrives. */
const draining = new WeakSet<Duplex>();

function answerAndClose(socket: Duplex, head: string, body = ''): void {
  if (draining.has(socket)) return;
  draining.add(socket);
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

/** Listens on a node:http server, or an HTTP/2 server that also serves HTTP/1.1 (the same events). */
export function answerOutsideHandlers(http: EventEmitter): void {
  http.on('connect', (_req, socket: Duplex) => {
    const body = JSON.stringify(errors.methodNotAllowed().status);
    answerAndClose(socket, 'HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json', body);
  });
  http.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection (a watch, say) must not get a status line in
    // its middle: then the connection is only cut, as Node does by default.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || inFlight?.headersSent) {
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
