/**
 * MutatingWebhookConfiguration (admissionregistration/v1, cluster-scoped): webhooks called in the
 * mutating phase of admission, which may change the object, possibly more than once.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { MutatingWebhook } from './types.js';
import { CREATE_OPTIONS, defaultWebhook, updateOptions, validateWebhooks } from './validation.js';
import { webhookConfigurationTable } from './webhook-table.js';

export const MutatingWebhookConfigurationSchema = t.struct('admissionregistration.v1.MutatingWebhookConfiguration', {
  ...objectHeader,
  webhooks: t.field(2, t.list(MutatingWebhook, { patchStrategy: 'merge', patchMergeKey: 'name' }), {
    description: 'The webhooks and what each is called for. Names are unique in the configuration.',
  }),
}, { description: 'Admission webhooks that may accept, reject or change objects, called before validation.' });
export type MutatingWebhookConfiguration = ObjectOf<typeof MutatingWebhookConfigurationSchema>;

export const mutatingWebhookConfigurationResource = defineResource<MutatingWebhookConfiguration>((names) => ({
  group: names.group('admissionregistration'),
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  resource: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  schema: MutatingWebhookConfigurationSchema,
  table: webhookConfigurationTable,
  fixture: () => ({
    webhooks: [
      {
        name: 'mutate.fixture.example.com',
        clientConfig: { service: { namespace: 'default', name: 'webhook' } },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
        sideEffects: 'NoneOnDryRun',
        admissionReviewVersions: ['v1', 'v1beta1'],
        // Stored fixtures take effect: only objects labelled for it are sent to this (unreachable) webhook.
        objectSelector: { matchLabels: { 'fixture.example.com/webhook': 'intercept' } },
      },
    ],
  }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults: (c) => (c.webhooks ?? []).forEach((h) => defaultWebhook(h, true)),
    validateCreate: (c) => validateWebhooks(c.webhooks, true, CREATE_OPTIONS),
    validateUpdate: (c, old) => validateWebhooks(c.webhooks, true, updateOptions(old.webhooks ?? [])),
  },
}));
