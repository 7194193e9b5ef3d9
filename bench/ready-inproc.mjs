/**
 * Time to ready in-process, in a fresh Node process: first a bare http.createServer().listen(0)
 * (the baseline), then `await createServer()` from dist/index.js. Prints one JSON line.
 * Usage: node bench/ready-inproc.mjs sqlite|memory <data-dir>
 */
import { createServer as createHttpServer } from 'node:http';
import { performance } from 'node:perf_hooks';

const [backend, dataDir] = process.argv.slice(2);

let t = performance.now();
const bare = createHttpServer((_req, res) => res.end());
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareListenMs = performance.now() - t;
await new Promise((resolve) => bare.close(resolve));

t = performance.now();
const { createServer } = await import('../dist/index.js');
const importMs = performance.now() - t;

t = performance.now();
const server = await createServer({ port: 0, storageBackend: backend, dataDir, logLevel: 'silent' });
const createServerMs = performance.now() - t;
await server.close();

process.stdout.write(`${JSON.stringify({ bareListenMs, importMs, createServerMs })}\n`);
