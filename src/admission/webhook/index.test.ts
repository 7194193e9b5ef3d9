/**
 * The two plugins over listers holding stored configurations the API would no longer accept (no
 * usable AdmissionReview version, side effects), called against a real HTTPS test webhook: the
 * Errors-table rows the API cannot produce any more, and the audit annotations a mutation leaves.
 */
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookServer, type WebhookServer } from '../../../test/helpers/admission-webhook-server.mjs';
import { hook, webhookCalls, webhookPki, type WebhookPki } from '../../../test/helpers/admission-webhooks.js';
import { staticListers } from '../../../test/helpers/static-lister.js';
import { createApiNames } from '../../machinery/api-names.js';
import { StatusError } from '../../machinery/errors.js';
import type { AuditContext } from '../../machinery/request-context.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { KubeObject } from '../../schema/index.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './index.js';

const names = createApiNames();
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the webhook admission plugins', () => {
  let pki: WebhookPki;
  let wh: WebhookServer;
  beforeAll(async () => {
    pki = await webhookPki();
    wh = await startWebhookServer({ cert: pki.serving.certPem, key: pki.serving.keyPem });
  });
  afterAll(() => wh?.close());

  const url = (path: string): { url: string; caBundle: string } => ({ url: `https://127.0.0.1:${wh.port}${path}`, caBundle: pki.caBundle });
  const calls = () => webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem });

  function plugins(kind: 'validating' | 'mutating', hooks: Record<string, unknown>[]) {
    const resource = `${kind}webhookconfigurations`;
    const listers = staticListers({
      [`${names.group('admissionregistration')}/${resource}`]: [{ metadata: { name: 'stored' }, webhooks: hooks } as never],
      '/namespaces': [{ metadata: { name: 'default' } }],
    });
    const metrics = new Registry();
    const deps = { names, listers, registry: { all: () => [] }, metrics, log: silent };
    return { plugin: kind === 'validating' ? validatingAdmissionWebhook(deps) : mutatingAdmissionWebhook(deps), metrics };
  }

  function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes & { audit: AuditContext; warnings: string[] } {
    const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } };
    return {
      operation: 'CREATE',
      group: '',
      version: 'v1',
      resource: 'configmaps',
      subresource: '',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'cm',
      object,
      dryRun: false,
      signal: new AbortController().signal,
      warnings: [],
      audit: { annotations: {} },
      ...over,
    } as AdmissionAttributes & { audit: AuditContext; warnings: string[] };
  }

  it('fails the call of a stored webhook with no usable AdmissionReview version, as failurePolicy says', async () => {
    const { plugin, metrics } = plugins('validating', [hook({ name: 'noversion.webhooks.test', ...url('/allow'), admissionReviewVersions: ['v9'] })]);
    const err = await Promise.resolve(plugin.validate?.(attrs())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed calling webhook "noversion.webhooks.test": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    });
    const text = await metrics.metrics();
    expect(text).toContain('apiserver_admission_webhook_rejection_count{name="noversion.webhooks.test",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="400"} 1');
    const open = plugins('validating', [hook({ name: 'noversion.webhooks.test', ...url('/allow'), admissionReviewVersions: ['v9'], failurePolicy: 'Ignore' })]);
    await expect(Promise.resolve(open.plugin.validate?.(attrs()))).resolves.toBeUndefined();
  });

  it('refuses a dry run that would reach a webhook with side effects, without calling it', async () => {
    await webhookCalls('127.0.0.1', wh.port, { ca: pki.ca.certPem }, true);
    const { plugin, metrics } = plugins('mutating', [hook({ name: 'sideeffects.webhooks.test', ...url('/allow'), sideEffects: 'Some' })]);
    const err = await Promise.resolve(plugin.admit?.(attrs({ dryRun: true }))).catch((e: unknown) => e);
    expect((err as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'admission webhook "sideeffects.webhooks.test" does not support dry run' });
    expect(await calls()).toEqual([]);
    expect(await metrics.metrics()).toContain('error_type="apiserver_internal_error",rejection_code="0"} 1');
    // The same request for real is sent.
    await plugin.admit?.(attrs());
    expect((await calls()).length).toBe(1);
  });

  it('records the mutation and patch audit annotations of every call', async () => {
    const { plugin } = plugins('mutating', [hook({ name: 'patcher.webhooks.test', ...url('/patch/team') }), hook({ name: 'allower.webhooks.test', ...url('/allow') })]);
    const a = attrs();
    await plugin.admit?.(a);
    expect(a.object?.metadata.labels).toEqual({ team: 'yes' });
    expect(a.audit.annotations).toEqual({
      'mutation.webhook.admission.orch.io/round_0_index_0': '{"configuration":"stored","webhook":"patcher.webhooks.test","mutated":true}',
      'patch.webhook.admission.orch.io/round_0_index_0':
        '{"configuration":"stored","webhook":"patcher.webhooks.test","patch":[{"op":"add","path":"/metadata/labels","value":{"team":"yes"}}],"patchType":"JSONPatch"}',
      'mutation.webhook.admission.orch.io/round_0_index_1': '{"configuration":"stored","webhook":"allower.webhooks.test","mutated":false}',
    });
  });

  it('refuses a patch for an operation without an object (DELETE)', async () => {
    const { plugin } = plugins('mutating', [hook({ name: 'delpatch.webhooks.test', ...url('/patch/x'), rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
    const old: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default', labels: { a: 'b' } } };
    const err = await Promise.resolve(plugin.admit?.(attrs({ operation: 'DELETE', oldObject: old, object: undefined } as Partial<AdmissionAttributes>))).catch((e: unknown) => e);
    expect((err as StatusError).status.message).toBe('Internal error occurred: admission webhook "delpatch.webhooks.test" attempted to modify the object, which is not supported for this operation');
  });
});
