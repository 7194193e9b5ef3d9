import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { webhookAdmissionSettings } from './admission-config.js';

const names = createApiNames('k8s.io');
const entry = (value: unknown) => ({ value, source: '/etc/admission.yaml', baseDir: '/etc' });

describe('the webhook plugins in the admission configuration file', () => {
  it('reads kubeConfigFile from WebhookAdmissionConfiguration (v1) and the deprecated WebhookAdmission (v1alpha1)', () => {
    expect(webhookAdmissionSettings(names, entry({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: '/etc/w.yaml' }), 'ValidatingAdmissionWebhook')).toEqual({
      kubeConfigFile: '/etc/w.yaml',
    });
    expect(webhookAdmissionSettings(names, entry({ apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmission', kubeConfigFile: '/etc/old.yaml' }), 'MutatingAdmissionWebhook')).toEqual({
      kubeConfigFile: '/etc/old.yaml',
    });
    expect(webhookAdmissionSettings(names, undefined, 'MutatingAdmissionWebhook')).toEqual({});
  });

  it('refuses another kind of configuration, and a relative kubeConfigFile', () => {
    expect(() => webhookAdmissionSettings(names, entry({ apiVersion: 'v1', kind: 'ConfigMap' }), 'ValidatingAdmissionWebhook')).toThrow(
      'admission control configuration /etc/admission.yaml: the configuration of ValidatingAdmissionWebhook must be apiserver.config.k8s.io/v1 WebhookAdmissionConfiguration or apiserver.config.k8s.io/v1alpha1 WebhookAdmission; got v1 ConfigMap',
    );
    expect(() =>
      webhookAdmissionSettings(names, entry({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: 'w.yaml' }), 'ValidatingAdmissionWebhook'),
    ).toThrow('admission control configuration /etc/admission.yaml: kubeConfigFile: Invalid value: "w.yaml": must be an absolute file path');
  });
});
