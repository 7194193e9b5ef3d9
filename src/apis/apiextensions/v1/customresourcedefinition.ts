/**
 * CustomResourceDefinition (apiextensions.<domain>/v1), cluster-scoped: defaults, validation and
 * status handling as Kubernetes' CRD strategy. The status (accepted names, conditions) belongs to
 * the CRD controller (controllers/crd-status); the storage version is recorded in
 * status.storedVersions on every write. Deleting a CRD first marks it Terminating with the cleanup
 * finalizer, so its objects are removed before it (controllers/crd-cleanup).
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { FieldPath } from '../../../machinery/field-errors.js';
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { crdSchema, type CrdCondition, type CustomResourceDefinition } from './types.js';
import { validateCrd, validateCrdUpdate, validateNames } from './validation.js';

/** The finalizer that holds a CRD until its objects are gone: customresourcecleanup.apiextensions.<domain>. */
export function crdCleanupFinalizer(names: ApiNames): string {
  return `customresourcecleanup.${names.group('apiextensions')}`;
}

/** Sets a condition, keeping its transition time when the status does not change. Mutates `crd`. */
export function setCrdCondition(crd: CustomResourceDefinition, c: Omit<CrdCondition, 'lastTransitionTime'>, now: string): void {
  crd.status ??= { acceptedNames: { plural: '', kind: '' } };
  const conditions = (crd.status.conditions ??= []);
  const existing = conditions.find((x) => x.type === c.type);
  if (!existing) {
    conditions.push({ ...c, lastTransitionTime: now });
    return;
  }
  if (existing.status !== c.status) existing.lastTransitionTime = now;
  existing.status = c.status;
  if (c.reason !== undefined) existing.reason = c.reason;
  if (c.message !== undefined) existing.message = c.message;
}

export function crdConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return crd.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
}

function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec.versions.find((v) => v.storage);
  if (!storage) return;
  crd.status ??= { acceptedNames: { plural: '', kind: '' } };
  const stored = (crd.status.storedVersions ??= []);
  if (!stored.includes(storage.name)) stored.push(storage.name);
}

export const customResourceDefinitionResource = defineResource<CustomResourceDefinition>((names) => ({
  group: names.group('apiextensions'),
  version: 'v1',
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  schema: crdSchema(names),
  fixtureName: (name) => `${name}.example.com`,
  fixture: (name = 'widgets.example.com') => {
    const plural = name.split('.')[0] ?? 'widgets';
    const kind = plural.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
    return {
      metadata: { name },
      spec: {
        group: name.slice(plural.length + 1),
        scope: 'Namespaced',
        names: { plural, kind },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', [`${names.openapiExtensionPrefix}preserve-unknown-fields`]: true } } }],
      },
    };
  },
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    trackGeneration: true,
    defaults(crd) {
      const n = crd.spec.names;
      if (n.kind) {
        if (!n.singular) n.singular = n.kind.toLowerCase();
        if (!n.listKind) n.listKind = `${n.kind}List`;
      }
      crd.spec.conversion ??= { strategy: 'None' };
      const service = crd.spec.conversion.webhook?.clientConfig?.service;
      if (service) service.port ??= 443;
      const accepted = crd.status?.acceptedNames;
      if (accepted?.kind && !accepted.listKind) accepted.listKind = `${accepted.kind}List`;
    },
    prepareForCreate(crd) {
      crd.status = { acceptedNames: { plural: '', kind: '' } };
      recordStorageVersion(crd);
    },
    prepareForUpdate(crd, old) {
      crd.status = structuredClone(old.status ?? { acceptedNames: { plural: '', kind: '' } });
      recordStorageVersion(crd);
    },
    validate: (crd, ctx) => validateCrd(crd, ctx.names),
    validateUpdate: (crd, old) => validateCrdUpdate(crd, old),
    holdsDeletion: (crd) => !crd.metadata.deletionTimestamp,
    prepareForDelete(crd, ctx) {
      const finalizer = crdCleanupFinalizer(ctx.names);
      const finalizers = (crd.metadata.finalizers ??= []);
      if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
      setCrdCondition(crd, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, ctx.now.toISOString().replace(/\.\d+Z$/, 'Z'));
    },
  },
  subresources: {
    status: statusSubresource<CustomResourceDefinition>({
      prepareForUpdate: (crd) => recordStorageVersion(crd),
      validateUpdate: (crd) => validateNames(crd.status?.acceptedNames, FieldPath.root('status').child('acceptedNames')),
    }),
  },
}));
