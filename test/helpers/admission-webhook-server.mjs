// A real HTTPS admission webhook for tests. Plain JavaScript, so that a test can also run it as a
// separate process (`node admission-webhook-server.mjs ...`, e.g. inside a network namespace).
// The path of each call picks the answer:
//   /allow                 allowed
//   /deny[/<code>]         denied, with status.code <code> when given and a message
//   /deny-bare             denied without a status
//   /warn                  allowed with two warnings; /deny-warn: denied (403) with them
//   /patch/<label>         allowed with a JSON patch setting the label <label>: "yes"
//   /hang                  never answers
//   /garbage               200 with a body that is not JSON
//   /wrong-version         answers in the other AdmissionReview version
//   /wrong-uid             answers with another uid
//   /status500             HTTP 500 with a text body
//   /whoami                allowed with a warning naming the client certificate's CN and the auth scheme
// GET /calls lists the reviews received (path, review, client CN, auth scheme); DELETE /calls clears them.
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';

export function startWebhookServer({ host = '127.0.0.1', port = 0, cert, key, clientCa }) {
  const calls = [];
  const hanging = new Set();
  const server = createServer({ cert, key, ...(clientCa ? { ca: clientCa, requestCert: true, rejectUnauthorized: true } : {}) }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/calls') {
        if (req.method === 'DELETE') calls.length = 0;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(calls));
        return;
      }
      let review;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400);
        res.end('not json');
        return;
      }
      const peer = req.socket.getPeerCertificate?.();
      const clientCN = peer && peer.subject ? peer.subject.CN : undefined;
      const auth = req.headers.authorization ? req.headers.authorization.split(' ')[0] : undefined;
      calls.push({ path, query: (req.url ?? '').split('?')[1] ?? '', review, clientCN, auth, userAgent: req.headers['user-agent'] });
      const uid = review.request?.uid;
      const answer = (response, apiVersion = review.apiVersion) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid, ...response } }));
      };
      const parts = path.split('/').filter(Boolean);
      switch (parts[0]) {
        case 'allow':
          return answer({ allowed: true });
        case 'deny': {
          const code = parts[1] ? Number(parts[1]) : undefined;
          return answer({ allowed: false, status: { ...(code !== undefined ? { code } : {}), message: 'the test webhook says no' } });
        }
        case 'deny-bare':
          return answer({ allowed: false });
        case 'warn':
          return answer({ allowed: true, warnings: ['a first warning', 'a second warning'] });
        case 'deny-warn':
          return answer({ allowed: false, status: { code: 403, message: 'denied with warnings' }, warnings: ['a first warning', 'a second warning'] });
        case 'patch': {
          const label = parts[1] ?? 'patched';
          const labels = review.request?.object?.metadata?.labels;
          const op = labels ? { op: 'add', path: `/metadata/labels/${label.replace(/~/g, '~0').replace(/\//g, '~1')}`, value: 'yes' } : { op: 'add', path: '/metadata/labels', value: { [label]: 'yes' } };
          return answer({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([op])).toString('base64') });
        }
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'garbage':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('this is not an AdmissionReview');
          return;
        case 'wrong-version':
          return answer({ allowed: true }, review.apiVersion.endsWith('/v1') ? review.apiVersion.replace(/\/v1$/, '/v1beta1') : review.apiVersion.replace(/\/v1beta1$/, '/v1'));
        case 'wrong-uid':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: 'not-the-uid', allowed: true } }));
          return;
        case 'status500':
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end('boom');
          return;
        case 'whoami':
          return answer({ allowed: true, warnings: [`client certificate CN=${clientCN ?? '(none)'}, authorization=${auth ?? '(none)'}`] });
        default:
          res.writeHead(404);
          res.end('no such behaviour');
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: address.port,
        host,
        close: () =>
          new Promise((done) => {
            for (const r of hanging) r.destroy();
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

// Run as a program: node admission-webhook-server.mjs <host> <certFile> <keyFile> [clientCaFile]
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [host, certFile, keyFile, clientCaFile] = process.argv.slice(2);
  const s = await startWebhookServer({
    host,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    ...(clientCaFile ? { clientCa: readFileSync(clientCaFile, 'utf8') } : {}),
  });
  process.stdout.write(`LISTENING ${s.port}\n`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
