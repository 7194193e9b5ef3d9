/**
 * Time to ready in-process, in a fresh Node process, printed as one JSON line:
 *   node bench/ready-inproc.mjs sqlite|memory <data-dir>   `await createServer()` from dist/index.js
 *   node bench/ready-inproc.mjs bare                       the baseline: http.createServer().listen(0)
 *   node bench/ready-inproc.mjs bare-tls <dir>             the TLS baseline: http2.createSecureServer() with
 *                                                          <dir>/tls.crt and tls.key (ALPN h2 + http/1.1), listen(0)
 * Each runs in a process of its own so that neither warms the other up. Module loading is not
 * counted in readyMs (it is reported apart as importMs).
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [what, dataDir] = process.argv.slice(2);

if (what === 'bare') {
  const t = performance.now();
  const bare = createHttpServer((_req, res) => res.end());
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const readyMs = performance.now() - t;
  await new Promise((resolve) => bare.close(resolve));
  process.stdout.write(`${JSON.stringify({ readyMs })}\n`);
} else if (what === 'bare-tls') {
  const t = performance.now();
  const bare = createSecureServer({ allowHTTP1: true, minVersion: 'TLSv1.2', cert: readFileSync(join(dataDir, 'tls.crt')), key: readFileSync(join(dataDir, 'tls.key')) }, (_req, res) => res.end());
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const readyMs = performance.now() - t;
  await new Promise((resolve) => bare.close(resolve));
  process.stdout.write(`${JSON.stringify({ readyMs })}\n`);
} else {
  let t = performance.now();
  const { createServer } = await import('../dist/index.js');
  const importMs = performance.now() - t;
  t = performance.now();
  const server = await createServer({ port: 0, storageBackend: what, dataDir, logLevel: 'silent' });
  const readyMs = performance.now() - t;
  await server.close();
  process.stdout.write(`${JSON.stringify({ readyMs, importMs })}\n`);
}
