/**
 * GET of one ConfigMap by name, driven by wrk (plain: HTTP/1.1) or h2load (secure: HTTP/2 over TLS,
 * the load user's bearer token, RBAC), against a bare server returning the same bytes over the same
 * protocol and TLS settings. Also the server's CPU per GET and its event-loop delay p99 under the load,
 * and on the secure server the cost of client-certificate authentication seen from a Node client.
 */
import { h2load, wrk } from '../lib/generators.mjs';
import { expectStatus, runLoad } from '../lib/load.mjs';
import { configMap } from '../lib/objects.mjs';
import { readLoopDelay } from '../lib/procs.mjs';
import { median } from '../lib/stats.mjs';
import { alternate, generatorNotes, loadUserCertificate, prepareNamespace, replayableHeaders } from './common.mjs';

export async function benchGet({ cfg, tools, server, baseline, backend, mode, record, skip }) {
  const ns = 'bench-get';
  await prepareNamespace(server, ns);
  const path = `/api/v1/namespaces/${ns}/configmaps/get-target`;
  await expectStatus(server.url, { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify(configMap('get-target')), access: server.admin }, 201);
  const sample = await expectStatus(server.url, { path, access: server.user }, 200);
  await baseline.serve(path, sample.body, replayableHeaders(sample.headers));

  const generator = server.secure ? 'h2load' : 'wrk';
  if (!tools[generator].path) {
    skip(`GET (${mode})`, tools[generator].missing);
  } else {
    const headers = server.user?.headers ?? {};
    const drive = (url, pid, connections, durationS) =>
      server.secure ? h2load(tools, { url: url + path, connections, durationS, headers, serverPid: pid }) : wrk(tools, { url: url + path, connections, durationS, headers, serverPid: pid });
    for (const concurrency of cfg.getConcurrency) {
      // Warm-up (connections, JIT, caches), not counted.
      await drive(server.url, server.pid, concurrency, cfg.warmupS);
      await drive(baseline.url, baseline.pid, concurrency, cfg.warmupS);
      const values = [];
      const base = [];
      const cpuPerReq = [];
      const loopP99 = [];
      const notes = new Set();
      for (let round = 0; round < cfg.rounds; round++) {
        const onServer = async () => {
          await readLoopDelay(server);
          const r = await drive(server.url, server.pid, concurrency, cfg.durationS);
          const delay = await readLoopDelay(server);
          if (r.non2xx) throw new Error(`GET ${path}: ${r.non2xx} of ${r.total} answers were not 2xx`);
          cpuPerReq.push(r.serverCpuUs / r.total);
          if (delay) loopP99.push(delay.p99);
          for (const n of generatorNotes(r, generator)) notes.add(`server: ${n}`);
          return r.rps;
        };
        const onBaseline = async () => {
          const r = await drive(baseline.url, baseline.pid, concurrency, cfg.durationS);
          for (const n of generatorNotes(r, generator)) notes.add(`baseline: ${n}`);
          return r.rps;
        };
        const [v, b] = await alternate(round, onServer, onBaseline);
        values.push(v);
        base.push(b);
      }
      const proto = server.secure ? 'h2+TLS, bearer token, RBAC' : 'HTTP/1.1 plain';
      record({
        id: `get.c${concurrency}`,
        measure: `GET by name, c=${concurrency} (req/s)`,
        backend,
        mode,
        values,
        serverCpuUs: median(cpuPerReq),
        loopDelayP99Ms: median(loopP99),
        notes: [...notes],
        baseline: { what: `bare ${server.secure ? 'node:http2 secure server (same certificate, ALPN h2, TLS settings)' : 'node:http'}, same ${sample.body.length} bytes and headers, ${generator} (${proto})`, values: base },
      });
    }
  }

  if (server.secure) await clientCertificateFigure({ cfg, server, backend, mode, record, path, skip });
}

/**
 * wrk and h2load cannot present a client certificate, so x509 authentication is measured with the
 * Node client (HTTP/1.1 over TLS, keep-alive): the load user by certificate against the same user by
 * bearer token, same client, same server. The Node client is the limit of both figures; their ratio
 * is what shows the certificate's cost.
 */
async function clientCertificateFigure({ cfg, server, backend, mode, record, path, skip }) {
  const certTls = loadUserCertificate(server);
  if (!certTls) return skip('GET with a client certificate', 'openssl not found: no client certificate for the load user');
  const byCert = { tls: certTls };
  const byToken = server.user;
  const concurrency = 16;
  const values = [];
  const base = [];
  const shares = [];
  const next = () => ({ path });
  const durationMs = cfg.durationS * 1000;
  for (let round = 0; round < cfg.rounds; round++) {
    const measure = (access) => async () => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const rps = await runLoad(server.url, { concurrency, warmupMs: cfg.warmupS * 1000, durationMs, next, access });
      const c = process.cpuUsage(c0);
      shares.push((c.user + c.system) / 1000 / (performance.now() - t0));
      return rps;
    };
    const [v, b] = await alternate(round, measure(byCert), measure(byToken));
    values.push(v);
    base.push(b);
  }
  record({
    id: 'get.x509',
    measure: `GET by name, c=${concurrency}, client certificate, Node client (req/s)`,
    backend,
    mode,
    values,
    // Flagged whatever its CPU share: on a shared machine the runner may be starved rather than busy.
    notes: [`GENERATOR-LIMITED: a Node client (up to ${(Math.max(...shares) * 100).toFixed(0)}% of a core); the ratio to the token figure is what counts`],
    baseline: { what: 'same Node client and server (HTTP/1.1 over TLS), load user by bearer token instead of certificate', values: base },
  });
}
