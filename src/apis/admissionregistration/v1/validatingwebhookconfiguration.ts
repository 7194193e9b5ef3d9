/**
 * ValidatingWebhookConfiguration (admissionregistration/v1, cluster-scoped): webhooks called in the
 * validating phase of admission, which may only accept or reject requests.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { ValidatingWebhook } from './types.js';
import { CREATE_OPTIONS, defaultWebhook, updateOptions, validateWebhooks } from './validation.js';
import { webhookConfigurationTable } from './webhook-table.js';

export const ValidatingWebhookConfigurationSchema = t.struct('admissionregistration.v1.ValidatingWebhookConfiguration', {
  ...objectHeader,
  webhooks: t.field(2, t.list(ValidatingWebhook, { patchStrategy: 'merge', patchMergeKey: 'name' }), {
    description: 'The webhooks and what each is called for. Names are unique in the configuration.',
  }),
}, { description: 'Admission webhooks that accept or reject requests, called after all changes to the object are made.' });
export type ValidatingWebhookConfiguration = ObjectOf<typeof ValidatingWebhookConfigurationSchema>;

export const validatingWebhookConfigurationResource = defineResource<ValidatingWebhookConfiguration>((names) => ({
  group: names.group('admissionregistration'),
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  resource: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  schema: ValidatingWebhookConfigurationSchema,
  table: webhookConfigurationTable,
  fixture: () => ({
    webhooks: [
      {
        name: 'check.fixture.example.com',
        clientConfig: { url: 'https://webhook.example.com/validate' },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        // Stored fixtures take effect: only objects labelled for it are sent to this (unreachable) webhook.
        objectSelector: { matchLabels: { 'fixture.example.com/webhook': 'intercept' } },
      },
    ],
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: (c) => (c.webhooks ?? []).forEach((h) => defaultWebhook(h, false)),
    validateCreate: (c) => validateWebhooks(c.webhooks, false, CREATE_OPTIONS),
    validateUpdate: (c, old) => validateWebhooks(c.webhooks, false, updateOptions(old.webhooks ?? [])),
  },
}));
