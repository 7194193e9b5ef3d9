/**
 * ServiceAccount (core/v1): an identity for processes in pods. Its secret references keep only the
 * secret's name (the namespace is the account's own), as Kubernetes cleans them on every write.
 */
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { LocalObjectReference, ObjectReference } from './types/index.js';
import { serviceAccountTable } from './tables.js';
import { serviceAccountTokenSubresource } from './serviceaccount-token.js';

export const ServiceAccountSchema = t.struct('core.v1.ServiceAccount', {
  ...objectHeader,
  secrets: t.field(2, t.list(ObjectReference, { patchStrategy: 'merge', patchMergeKey: 'name' }), {
    description: 'Secrets in the same namespace that pods running as this account may use; only the name of each is kept.',
  }),
  imagePullSecrets: t.field(3, t.list(LocalObjectReference), {
    description: 'Secrets used to pull images, copied into pods that run as this account and name none of their own.',
  }),
  automountServiceAccountToken: t.field(4, t.bool(), {
    pointer: true,
    description: "Whether pods running as this account get an API token mounted; a pod's own setting wins.",
  }),
}, { description: 'An identity for processes that run in pods, authenticated by tokens the server signs.' });
export type ServiceAccount = ObjectOf<typeof ServiceAccountSchema>;

/** Mutates. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((s) => (s.name ? { name: s.name } : {}));
}

export const serviceAccountResource = defineResource<ServiceAccount>((names, env) => ({
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  schema: ServiceAccountSchema,
  table: serviceAccountTable,
  fixture: () => ({ automountServiceAccountToken: false }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    returnDeletedObject: true,
    prepareForCreate: cleanSecretReferences,
    prepareForUpdate: cleanSecretReferences,
  },
  // Served only when the server has a key to sign tokens with, as Kubernetes serves it only with an issuer.
  ...(env.serviceAccountTokens && env.listers ? { subresources: { token: serviceAccountTokenSubresource(names, env.serviceAccountTokens, env.listers) } } : {}),
}));
