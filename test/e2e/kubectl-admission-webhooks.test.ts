/**
 * What a kubectl user sees of admission webhooks (k8s.io server, real kubectl): configurations made
 * with `kubectl create -f`, the webhook's denial message and its warnings on stderr, and the
 * rejection metric through `kubectl get --raw /metrics`. Skips, saying why, when kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../helpers/admission-webhook-server.mjs';
import { eventually, webhookPki, type WebhookPki } from '../helpers/admission-webhooks.js';
import { DEFAULT_KUBECTL, kubectlSandbox, onPath, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const hasKubectl = onPath(DEFAULT_KUBECTL) !== undefined || DEFAULT_KUBECTL.includes('/');
if (!hasKubectl) console.log('kubectl admission webhook tests skipped: no kubectl on PATH');

describe.skipIf(!hasKubectl)('kubectl and admission webhooks', () => {
  let s: TestServer;
  let box: ReturnType<typeof kubectlSandbox>;
  let pki: WebhookPki;
  let wh: WebhookServer;
  let n = 0;

  beforeAll(async () => {
    pki = await webhookPki();
    wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
    s = await startTestServer({ tls: true, apiDomain: 'k8s.io' });
    box = kubectlSandbox(s.server.kubeconfig(), 'orch-kubectl-webhooks-');
  });
  afterAll(async () => {
    await s?.close();
    await wh?.close();
    box?.remove();
  });
  const kubectl = (...args: string[]): Promise<Run> => box.run(DEFAULT_KUBECTL, args);

  const configuration = (kind: 'Validating' | 'Mutating', name: string, path: string): string =>
    [
      'apiVersion: admissionregistration.k8s.io/v1',
      `kind: ${kind}WebhookConfiguration`,
      'metadata:',
      `  name: ${name}`,
      'webhooks:',
      `- name: ${name}.webhooks.test`,
      '  clientConfig:',
      `    url: https://127.0.0.1:${wh.port}${path}`,
      `    caBundle: ${pki.caBundle}`,
      '  rules:',
      '  - operations: ["CREATE"]',
      '    apiGroups: [""]',
      '    apiVersions: ["v1"]',
      '    resources: ["configmaps"]',
      '  sideEffects: None',
      '  admissionReviewVersions: ["v1"]',
      '',
    ].join('\n');

  /** Creates config maps with kubectl until `done` says the configuration is in force. */
  const createUntil = (done: (r: Run) => boolean): Promise<Run> => eventually(() => kubectl('create', 'configmap', `cm-${++n}`, '--from-literal=a=b'), done);

  it('shows the webhook denial message and its warnings, and the rejection metric counts it', async () => {
    const created = await kubectl('create', '-f', box.manifest('deny.yaml', configuration('Validating', 'deny', '/deny-warn')));
    expect(created.code, created.stderr).toBe(0);
    const r = await createUntil((x) => x.code !== 0);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Warning: a first warning');
    expect(r.stderr).toContain('Warning: a second warning');
    expect(r.stderr).toContain('error: failed to create configmap: admission webhook "deny.webhooks.test" denied the request: denied with warnings');
    const metrics = await kubectl('get', '--raw', '/metrics');
    expect(metrics.code, metrics.stderr).toBe(0);
    expect(metrics.stdout).toContain(
      'apiserver_admission_webhook_rejection_count{name="deny.webhooks.test",type="validating",operation="CREATE",error_type="no_error",rejection_code="403"} 1',
    );
    expect((await kubectl('delete', 'validatingwebhookconfiguration', 'deny')).code).toBe(0);
  });

  it('shows the warnings of an allowing webhook and the labels a mutating webhook added', async () => {
    expect((await kubectl('create', '-f', box.manifest('warn.yaml', configuration('Validating', 'warn', '/warn')))).code).toBe(0);
    expect((await kubectl('create', '-f', box.manifest('patch.yaml', configuration('Mutating', 'patch', '/patch/webhook-was-here')))).code).toBe(0);
    const r = await createUntil((x) => x.stderr.includes('Warning: a first warning'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/configmap\/cm-\d+ created/);
    const name = /configmap\/(cm-\d+) created/.exec(r.stdout)?.[1] ?? '';
    const labels = await kubectl('get', 'configmap', name, '-o', 'jsonpath={.metadata.labels}');
    expect(labels.stdout).toBe('{"webhook-was-here":"yes"}');
  });

  it('shows why a failing webhook (failurePolicy Fail) refuses the request', async () => {
    expect((await kubectl('create', '-f', box.manifest('garbage.yaml', configuration('Validating', 'garbage', '/wrong-version')))).code).toBe(0);
    const r = await createUntil((x) => x.code !== 0);
    expect(r.stderr).toContain(
      'error: failed to create configmap: Internal error occurred: failed calling webhook "garbage.webhooks.test": received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    );
    const metrics = await kubectl('get', '--raw', '/metrics');
    expect(metrics.stdout).toContain(
      'apiserver_admission_webhook_rejection_count{name="garbage.webhooks.test",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="503"} 1',
    );
  });
});
