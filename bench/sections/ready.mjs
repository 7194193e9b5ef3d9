/**
 * Time to ready: the CLI process from spawn to the printed URL (baseline: a bare node:http process,
 * spawn to its URL), and `await createServer()` in a fresh process, module loading apart (baseline:
 * http.createServer().listen() in another fresh process).
 */
import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, startBaseline, startServer, tempDir } from '../lib/procs.mjs';

const run = promisify(execFile);

async function inProcess(...args) {
  const { stdout } = await run(process.execPath, [join(ROOT, 'bench', 'ready-inproc.mjs'), ...args], { timeout: 30_000 });
  return JSON.parse(stdout);
}

/**
 * A directory with an ECDSA P-256 self-signed certificate (the serving key type the server makes) for
 * the TLS baseline, or undefined without the openssl CLI (the baseline is then plain node:http).
 */
function baselineCertificate() {
  const dir = tempDir('ready-tls');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt'), '-subj', '/CN=127.0.0.1', '-days', '1'], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

export async function benchReady({ cfg, backend, record }) {
  const tlsDir = baselineCertificate();
  const cli = [];
  const cliSecure = [];
  const cliBase = [];
  const inproc = [];
  const inprocBase = [];
  const imports = [];
  for (let round = 0; round < cfg.readyRounds; round++) {
    const s = await startServer(backend);
    cli.push(s.readyMs);
    await s.stop();
    // As npm start runs it: TLS, with the CA and certificates made at this first start.
    const secure = await startServer(backend, { secure: true });
    cliSecure.push(secure.readyMs);
    await secure.stop();
    const b = await startBaseline();
    cliBase.push(b.readyMs);
    await b.stop();
    const dir = tempDir('ready');
    try {
      const r = await inProcess(backend, dir);
      inproc.push(r.readyMs);
      imports.push(r.importMs);
      inprocBase.push((await (tlsDir ? inProcess('bare-tls', tlsDir) : inProcess('bare'))).readyMs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  record({
    id: 'ready.cli',
    measure: 'time to ready, CLI process (ms)',
    backend,
    values: cli,
    baseline: { what: 'bare node:http process, spawn to its URL', values: cliBase },
    lowerIsBetter: true,
  });
  record({
    id: 'ready.cli.secure',
    measure: 'time to ready, CLI process, TLS + RBAC, first start (ms)',
    backend,
    mode: 'secure',
    values: cliSecure,
    baseline: { what: 'bare node:http process, spawn to its URL', values: cliBase },
    lowerIsBetter: true,
  });
  record({
    id: 'ready.inproc',
    measure: 'time to ready, createServer() with TLS, certificates made (ms)',
    backend,
    mode: 'secure',
    values: inproc,
    baseline: { what: tlsDir ? 'http2.createSecureServer() (ECDSA P-256 certificate read from files, not made) .listen() in a fresh process' : 'http.createServer().listen() in a fresh process (no openssl for a TLS certificate)', values: inprocBase },
    lowerIsBetter: true,
  });
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  record({ id: 'ready.import', measure: 'import of dist/index.js (ms)', backend, values: imports, lowerIsBetter: true });
}
