/**
 * The baseline: a bare node:http server (or, with BENCH_TLS_DIR set, a bare node:http2 secure server
 * with the server's own certificate files and TLS settings: ALPN h2 + http/1.1, TLS 1.2 minimum,
 * client certificates requested and checked against the same CA) that returns whatever bytes it is told to (over IPC) and fans
 * posted events out to open watch streams. What it costs is the floor: Node's HTTP stack and loopback.
 *   GET  <path>      the bytes and headers set for <path>
 *   GET  /watch      a streaming 200 response held open
 *   POST /watch      the posted object goes out to every open /watch as {"type":"ADDED","object":…}\n
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { join } from 'node:path';

const routes = new Map();
const watchers = new Set();

const tlsDir = process.env.BENCH_TLS_DIR;
const tlsOptions = tlsDir
  ? {
      allowHTTP1: true,
      cert: readFileSync(join(tlsDir, 'apiserver.crt')),
      key: readFileSync(join(tlsDir, 'apiserver.key')),
      minVersion: 'TLSv1.2',
      ca: readFileSync(join(tlsDir, 'ca.crt')),
      requestCert: true,
      rejectUnauthorized: false,
    }
  : undefined;
const handler = (req, res) => {
  if (req.url === '/watch' && req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    watchers.add(res);
    res.on('close', () => watchers.delete(res));
    return;
  }
  if (req.url === '/watch' && req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const line = `{"type":"ADDED","object":${body}}\n`;
      for (const w of watchers) w.write(line);
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
    return;
  }
  const route = routes.get(req.url);
  req.resume();
  if (!route) {
    res.writeHead(404, { 'Content-Length': 0 });
    res.end();
    return;
  }
  // Wait for the request body like a real server would, then answer with the stored bytes.
  req.on('end', () => {
    res.writeHead(route.status, route.headers);
    res.end(route.body);
  });
};
const server = tlsOptions ? createSecureServer(tlsOptions, handler) : createServer(handler);
server.keepAliveTimeout = 65_000;

process.on('message', (msg) => {
  const body = Buffer.from(msg.body, 'base64');
  routes.set(msg.path, { status: msg.status, headers: { ...msg.headers, 'Content-Length': body.length }, body });
  process.send({ ack: msg.id });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${tlsOptions ? 'https' : 'http'}://127.0.0.1:${server.address().port}\n`);
});
