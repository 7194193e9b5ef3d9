import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { loadWebhookAdmissionSettings } from './admission-config.js';

const names = createApiNames('k8s.io');
const dir = mkdtempSync(join(tmpdir(), 'orch-admission-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(text: string): string {
  const path = join(dir, `a${Math.random()}.yaml`);
  writeFileSync(path, text);
  return path;
}

const admission = (configuration: string): string =>
  `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration:\n${configuration
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;

describe('the webhook plugins in the admission configuration file', () => {
  it('reads kubeConfigFile from WebhookAdmissionConfiguration (v1) and the deprecated WebhookAdmission (v1alpha1)', () => {
    const v1 = file(admission('apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: /etc/webhooks.yaml'));
    expect(loadWebhookAdmissionSettings(names, v1, 'ValidatingAdmissionWebhook')).toEqual({ kubeConfigFile: '/etc/webhooks.yaml' });
    const alpha = file(admission('apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: WebhookAdmission\nkubeConfigFile: /etc/old.yaml'));
    expect(loadWebhookAdmissionSettings(names, alpha, 'ValidatingAdmissionWebhook')).toEqual({ kubeConfigFile: '/etc/old.yaml' });
  });

  it('gives a plugin the file does not configure no settings', () => {
    const v1 = file(admission('apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: /etc/webhooks.yaml'));
    expect(loadWebhookAdmissionSettings(names, v1, 'MutatingAdmissionWebhook')).toEqual({});
    expect(loadWebhookAdmissionSettings(names, undefined, 'MutatingAdmissionWebhook')).toEqual({});
  });

  it('refuses another kind of configuration, naming what it wants', () => {
    const wrong = file(admission('apiVersion: v1\nkind: ConfigMap'));
    expect(() => loadWebhookAdmissionSettings(names, wrong, 'ValidatingAdmissionWebhook')).toThrow(
      `admission configuration ${wrong}: the configuration of ValidatingAdmissionWebhook must be apiserver.config.k8s.io/v1 WebhookAdmissionConfiguration or apiserver.config.k8s.io/v1alpha1 WebhookAdmission; got v1 ConfigMap`,
    );
  });
});
