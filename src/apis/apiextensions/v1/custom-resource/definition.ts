/**
 * The served definitions of a CustomResourceDefinition: one per served version, made exactly like
 * a built-in kind's (schema, strategy, subresources, table), so the generic code serves them. The
 * storage version is the hub; other versions convert with strategy None (only apiVersion changes).
 * Names are the CRD's accepted names (status.acceptedNames), as Kubernetes serves them. While
 * the CRD is being deleted, creates are refused.
 */
import type { ApiNames } from '../../../../machinery/api-names.js';
import { errors } from '../../../../machinery/errors.js';
import { nameValidators } from '../../../../machinery/name-validation.js';
import type { FieldError } from '../../../../machinery/field-errors.js';
import { statusSubresource, type ResourceDefinition, type SubresourceDefinition } from '../../../../registry/define-resource.js';
import type { KubeObject, StructSchema } from '../../../../schema/index.js';
import { schemaExtensionKeys, type CrdVersion, type CustomResourceDefinition, type JSONSchemaProps } from '../types.js';
import { customResourceStruct } from './struct-schema.js';
import { customResourceTable } from './table.js';
import { customResourceScale } from './scale.js';
import { applyDefaults, validateCustomObject } from './values.js';

function storageVersionOf(crd: CustomResourceDefinition): CrdVersion | undefined {
  return crd.spec.versions.find((v) => v.storage);
}

function withApiVersion(obj: KubeObject, apiVersion: string): KubeObject {
  return { ...obj, apiVersion };
}

/** The definitions to serve; empty when the CRD has no accepted names yet. */
export function customResourceDefinitions(crd: CustomResourceDefinition, names: ApiNames): ResourceDefinition[] {
  const accepted = crd.status?.acceptedNames;
  const terminating = crd.metadata.deletionTimestamp !== undefined;
  const storage = storageVersionOf(crd);
  if (!accepted?.plural || !accepted.kind || !storage) return [];
  const group = crd.spec.group;
  const x = schemaExtensionKeys(names);
  const hubApiVersion = `${group}/${storage.name}`;
  const out: ResourceDefinition[] = [];
  // The storage version is always made, since it owns the store (served, even if the CRD says not); the others only when served.
  for (const v of [storage, ...crd.spec.versions.filter((v) => v !== storage)]) {
    if (!v.served && v !== storage) continue;
    const root = v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
    const hasStatus = v.subresources?.status !== undefined;
    const subresources: Record<string, SubresourceDefinition> = {};
    if (hasStatus) subresources.status = statusSubresource();
    if (v.subresources?.scale) subresources.scale = customResourceScale(v.subresources.scale, group, accepted.plural, hasStatus);
    const apiVersion = `${group}/${v.name}`;
    const def: ResourceDefinition = {
      group,
      version: v.name,
      kind: accepted.kind,
      resource: accepted.plural,
      singular: accepted.singular ?? accepted.kind.toLowerCase(),
      namespaced: crd.spec.scope === 'Namespaced',
      ...(accepted.shortNames?.length ? { shortNames: accepted.shortNames } : {}),
      ...(accepted.categories?.length ? { categories: accepted.categories } : {}),
      schema: customResourceStruct(`${group}.${v.name}.${accepted.kind}`, root, x) as StructSchema<KubeObject>,
      subresources,
      table: customResourceTable(v.additionalPrinterColumns ?? []),
      strategy: {
        nameValidator: nameValidators.dnsSubdomain,
        trackGeneration: true,
        defaults: (obj) => applyDefaults(obj as Record<string, unknown>, root),
        prepareForCreate(obj) {
          if (hasStatus) delete obj.status;
        },
        prepareForUpdate(obj, old) {
          if (!hasStatus) return;
          if (old.status === undefined) delete obj.status;
          else obj.status = structuredClone(old.status);
        },
        validate: (obj): FieldError[] => validateCustomObject(obj as Record<string, unknown>, root, x),
        ...(terminating
          ? {
              // Objects are being deleted with their CRD: none may be added meanwhile.
              beginCreate: (): Promise<undefined> => Promise.reject(errors.methodNotAllowed('create not allowed while custom resource definition is terminating')),
            }
          : {}),
      },
      ...(v !== storage ? { conversion: { toHub: (o: KubeObject) => withApiVersion(o, hubApiVersion), fromHub: (o: KubeObject) => withApiVersion(o, apiVersion) } } : {}),
      ...(v.deprecated
        ? { deprecation: { deprecatedIn: '', removedIn: '', warning: v.deprecationWarning ?? `${apiVersion} ${accepted.kind} is deprecated` } }
        : {}),
    };
    out.push(def);
  }
  return out;
}
