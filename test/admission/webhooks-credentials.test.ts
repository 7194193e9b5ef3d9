/**
 * The server's credentials toward webhooks (document 3, "Webhook authentication to the API server"):
 * the admission configuration file names, per plugin, a kubeconfig whose users are matched by the
 * webhook's host and port (`*` the default); a webhook requiring a client certificate gets the one
 * its user holds, others a token or basic credentials.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/index.js';
import { createCertificateAuthority, issueCertificate } from '../../src/machinery/x509/certificates.js';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import { createConfiguration, deleteConfiguration, eventually, hook, webhookPki, warningsOf, type WebhookPki } from '../helpers/admission-webhooks.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('webhook credentials from the admission configuration', () => {
  let pki: WebhookPki;
  let mtls: WebhookServer;
  let open: WebhookServer;
  let dir: string;
  let configFile: string;
  let s: TestServer;
  let n = 0;

  beforeAll(async () => {
    pki = await webhookPki();
    const clientCa = await createCertificateAuthority('webhook-client-ca', 1);
    const client = await issueCertificate(clientCa, { commonName: 'apiserver-to-webhooks', usage: 'client', validForDays: 1 });
    mtls = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem, clientCa: clientCa.certPem });
    open = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    dir = mkdtempSync(join(tmpdir(), 'orch-webhook-creds-'));
    const kubeconfig = join(dir, 'webhook-kubeconfig.yaml');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'users:',
        `- name: "127.0.0.1:${mtls.port}"`,
        '  user:',
        `    client-certificate-data: ${b64(client.certPem)}`,
        `    client-key-data: ${b64(client.keyPem)}`,
        `- name: "localhost:${open.port}"`,
        '  user:',
        '    username: webhook-caller',
        '    password: not-a-real-password',
        '- name: "*"',
        '  user:',
        '    token: default-webhook-token',
        '',
      ].join('\n'),
    );
    // The mutating plugin's configuration sits in a file of its own, named relative to the admission configuration.
    writeFileSync(join(dir, 'mutating.yaml'), `apiVersion: apiserver.config.orch.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: ${kubeconfig}\n`);
    configFile = join(dir, 'admission.yaml');
    writeFileSync(
      configFile,
      [
        'apiVersion: apiserver.config.orch.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: ValidatingAdmissionWebhook',
        '  configuration:',
        '    apiVersion: apiserver.config.orch.io/v1',
        '    kind: WebhookAdmissionConfiguration',
        `    kubeConfigFile: ${kubeconfig}`,
        '- name: MutatingAdmissionWebhook',
        '  path: mutating.yaml',
        '',
      ].join('\n'),
    );
    s = await startTestServer({ admission: { configFile } });
  });

  afterAll(async () => {
    await s?.close();
    await mtls?.close();
    await open?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const whoami = async (kind: 'validating' | 'mutating', url: string): Promise<string[]> => {
    const name = `whoami-${++n}`;
    await createConfiguration(s, kind, name, [hook({ name: 'whoami.webhooks.test', url, caBundle: pki.caBundle })]);
    try {
      const r = await eventually(() => s.post(CM, { metadata: { name: `cm-${++n}` } }), (x) => warningsOf(x.headers).length > 0);
      expect(r.status).toBe(201);
      return warningsOf(r.headers);
    } finally {
      await deleteConfiguration(s, kind, name);
    }
  };

  it('presents the client certificate of the user named by the webhook host and port', async () => {
    expect(await whoami('validating', `https://127.0.0.1:${mtls.port}/whoami`)).toEqual(['client certificate CN=apiserver-to-webhooks, authorization=(none)']);
  });

  it('reads the mutating plugin configuration from the file its path names', async () => {
    expect(await whoami('mutating', `https://127.0.0.1:${mtls.port}/whoami`)).toEqual(['client certificate CN=apiserver-to-webhooks, authorization=(none)']);
  });

  it('sends basic credentials or a token as the matching user holds them, and falls back to the user *', async () => {
    expect(await whoami('validating', `https://localhost:${open.port}/whoami`)).toEqual(['client certificate CN=(none), authorization=Basic']);
    expect(await whoami('validating', `https://127.0.0.1:${open.port}/whoami`)).toEqual(['client certificate CN=(none), authorization=Bearer']);
  });

  it('fails the call to a webhook requiring a client certificate when the server has none for it', async () => {
    const bare = await startTestServer();
    try {
      await createConfiguration(bare, 'validating', 'mtls', [hook({ name: 'mtls.webhooks.test', url: `https://127.0.0.1:${mtls.port}/allow`, caBundle: pki.caBundle })]);
      const r = await eventually(() => bare.post(CM, { metadata: { name: `cm-${++n}` } }), (x) => x.status !== 201);
      expect(r.status).toBe(500);
      expect(r.body.message).toContain(`failed calling webhook "mtls.webhooks.test": failed to call webhook: Post "https://127.0.0.1:${mtls.port}/allow?timeout=10s": `);
    } finally {
      await bare.close();
    }
  });

  it('refuses to start with a kubeConfigFile that is not an absolute path', async () => {
    const bad = join(dir, 'bad-admission.yaml');
    writeFileSync(
      bad,
      'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration:\n    apiVersion: apiserver.config.orch.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: relative.yaml\n',
    );
    await expect(createServer({ port: 0, plainHttp: true, logLevel: 'silent', admission: { configFile: bad } })).rejects.toThrow(
      `admission control configuration ${bad}: kubeConfigFile: Invalid value: "relative.yaml": must be an absolute file path`,
    );
  });
});
