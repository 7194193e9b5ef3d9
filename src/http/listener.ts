/**
 * The listener: HTTPS with HTTP/2 and HTTP/1.1 on one port (chosen by ALPN), or plain HTTP/1.1 when
 * asked. Both kinds hand the same request handler Node's request and response objects (HTTP/2 through
 * Node's compatibility API), plus what the TLS handshake learned about the client's certificate.
 * Transport only: nothing here knows the API.
 */
import { createServer as createPlainServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import type { EventEmitter } from 'node:events';

export type HttpRequest = IncomingMessage | Http2ServerRequest;
export type HttpResponse = ServerResponse | Http2ServerResponse;

/** What the TLS handshake learned about the client, for the authentication filter. */
export interface TlsPeer {
  /** `h2` or `http/1.1`. */
  readonly alpnProtocol: string;
  /**
   * The certificate chain the client presented, leaf first, when it verified against one of the CAs
   * of `TlsSettings.clientCaPem` (`--client-ca-file` and `--requestheader-client-ca-file`); absent
   * when the client presented none, or when it did not verify. Which CA it is anchored in is for
   * each authenticator to check.
   */
  readonly verifiedChain?: readonly X509Certificate[];
  /** Why a certificate the client presented did not verify (connections are kept; authentication refuses). */
  readonly verificationError?: string;
}

export interface TlsSettings {
  /** The serving certificate (chain) and its key, PEM. */
  certPem: string;
  keyPem: string;
  /**
   * CA bundle client certificates are verified against (every CA any authenticator trusts); without
   * it none is asked for.
   */
  clientCaPem?: string;
  minVersion: 'TLSv1.2' | 'TLSv1.3';
}

export interface ListenOptions {
  host: string;
  port: number;
  /** Absent: plain HTTP/1.1 (the caller decides when that is acceptable). */
  tls?: TlsSettings;
  handler(req: HttpRequest, res: HttpResponse, peer: TlsPeer | undefined): void;
  /**
   * Called with the node server before it listens, to answer what never reaches `handler` (HTTP/1.1
   * CONNECT and requests the parser refuses arrive as the server's `connect` and `clientError` events).
   */
  configure?(server: EventEmitter): void;
}

export interface Listener {
  readonly address: AddressInfo;
  readonly scheme: 'https' | 'http';
  /** Stops accepting and cuts every open connection (watches included). */
  close(): Promise<void>;
}

/** Kept on each TLS socket after its handshake; read through HTTP/2's socket proxy as well. */
const PEER = Symbol('orch.tlsPeer');
type PeerCarrier = { [PEER]?: TlsPeer };

export async function listen(options: ListenOptions): Promise<Listener> {
  const sockets = new Set<Socket>();
  const server = options.tls ? secureServer(options.tls, options.handler) : plainServer(options.handler);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  options.configure?.(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    address: server.address() as AddressInfo,
    scheme: options.tls ? 'https' : 'http',
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}

function plainServer(handler: ListenOptions['handler']) {
  const server = createPlainServer((req, res) => handler(req, res, undefined));
  server.keepAliveTimeout = 65_000;
  return server;
}

function secureServer(tls: TlsSettings, handler: ListenOptions['handler']) {
  const server = createSecureServer(
    {
      allowHTTP1: true,
      cert: tls.certPem,
      key: tls.keyPem,
      minVersion: tls.minVersion,
      // As kube-apiserver: ask for a certificate, verify one that is presented, but let clients
      // without one (tokens, anonymous) in; authentication decides about a certificate that failed.
      ...(tls.clientCaPem ? { ca: tls.clientCaPem, requestCert: true, rejectUnauthorized: false } : {}),
    },
    (req, res) => handler(req, res, (req.socket as unknown as PeerCarrier)[PEER]),
  );
  // HTTP/1.1 connections are served by node:http's machinery, which reads these settings from the server.
  Object.assign(server, { keepAliveTimeout: 65_000 });
  server.on('secureConnection', (socket: TLSSocket) => {
    (socket as unknown as PeerCarrier)[PEER] = peerOf(socket);
  });
  return server;
}

function peerOf(socket: TLSSocket): TlsPeer {
  const alpnProtocol = socket.alpnProtocol || 'http/1.1';
  const leaf = socket.getPeerCertificate(true);
  if (!leaf || !leaf.raw) return { alpnProtocol };
  if (!socket.authorized) return { alpnProtocol, verificationError: String(socket.authorizationError ?? 'certificate not verified') };
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let c: typeof leaf | undefined = leaf; c?.raw && !seen.has(c.fingerprint256); c = c.issuerCertificate) {
    seen.add(c.fingerprint256);
    chain.push(new X509Certificate(c.raw));
  }
  return { alpnProtocol, verifiedChain: chain };
}
