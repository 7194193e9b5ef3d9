/**
 * CustomResourceDefinition (apiextensions.<domain>/v1): the types of Kubernetes 1.25, with their
 * protobuf field numbers. JSONSchemaProps is recursive (a lazy schema); its vendor extensions are
 * named with the domain's prefix (`x-kubernetes-…` under k8s.io, `x-orch-…` under orch.io). The
 * either-or fields (`items`: a schema or a list of schemas; `additionalProperties`: a schema or a
 * boolean; `dependencies`) are kept as sent and checked by validation.ts.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { objectHeader, t, type Infer, type ObjectOf, type StructSchema } from '../../../schema/index.js';

/** The vendor-extension keys of a JSONSchemaProps under these API names. */
export interface SchemaExtensionKeys {
  preserveUnknownFields: string;
  embeddedResource: string;
  intOrString: string;
  listMapKeys: string;
  listType: string;
  mapType: string;
  validations: string;
}

export function schemaExtensionKeys(names: Pick<ApiNames, 'openapiExtensionPrefix'>): SchemaExtensionKeys {
  const p = names.openapiExtensionPrefix;
  return {
    preserveUnknownFields: `${p}preserve-unknown-fields`,
    embeddedResource: `${p}embedded-resource`,
    intOrString: `${p}int-or-string`,
    listMapKeys: `${p}list-map-keys`,
    listType: `${p}list-type`,
    mapType: `${p}map-type`,
    validations: `${p}validations`,
  };
}

const ValidationRule = t.struct('apiextensions.v1.ValidationRule', {
  rule: t.required(1, t.string(), { always: true, description: 'A CEL expression that must hold; `self` is the value the rule is on, `oldSelf` its previous value on update.' }),
  message: t.field(2, t.string(), { description: 'The message shown when the rule fails.' }),
});

const ExternalDocumentation = t.struct('apiextensions.v1.ExternalDocumentation', {
  description: t.field(1, t.string()),
  url: t.field(2, t.string()),
});

const schemaCache = new Map<string, StructSchema>();

/** The JSONSchemaProps schema under these names (made once per extension prefix). */
export function jsonSchemaProps(names: Pick<ApiNames, 'openapiExtensionPrefix'>): StructSchema {
  const cached = schemaCache.get(names.openapiExtensionPrefix);
  if (cached) return cached;
  const x = schemaExtensionKeys(names);
  const self = t.lazy<Record<string, unknown>>(() => schema);
  const schema: StructSchema = t.struct('apiextensions.v1.JSONSchemaProps', {
    id: t.field(1, t.string()),
    $schema: t.field(2, t.string()),
    $ref: t.field(3, t.string(), { pointer: true }),
    description: t.field(4, t.string()),
    type: t.field(5, t.string()),
    format: t.field(6, t.string(), { description: 'The format of a string: int32, int64, float, double, byte, date, date-time, password, and the Kubernetes formats (uuid, hostname, ipv4, cidr, ...).' }),
    title: t.field(7, t.string()),
    default: t.field(8, t.raw({ name: 'apiextensions.v1.JSON' }), { pointer: true, description: 'The value given to an absent field; needs a structural schema.' }),
    maximum: t.field(9, t.double(), { pointer: true }),
    exclusiveMaximum: t.field(10, t.bool()),
    minimum: t.field(11, t.double(), { pointer: true }),
    exclusiveMinimum: t.field(12, t.bool()),
    maxLength: t.field(13, t.int64(), { pointer: true }),
    minLength: t.field(14, t.int64(), { pointer: true }),
    pattern: t.field(15, t.string()),
    maxItems: t.field(16, t.int64(), { pointer: true }),
    minItems: t.field(17, t.int64(), { pointer: true }),
    uniqueItems: t.field(18, t.bool()),
    multipleOf: t.field(19, t.double(), { pointer: true }),
    enum: t.field(20, t.list(t.raw({ name: 'apiextensions.v1.JSON' }), { listType: 'atomic' })),
    maxProperties: t.field(21, t.int64(), { pointer: true }),
    minProperties: t.field(22, t.int64(), { pointer: true }),
    required: t.field(23, t.list(t.string(), { listType: 'atomic' })),
    items: t.field(24, t.raw({ name: 'apiextensions.v1.JSONSchemaPropsOrArray' }), { pointer: true, description: 'The schema of the items of an array.' }),
    allOf: t.field(25, t.list(self, { listType: 'atomic' })),
    oneOf: t.field(26, t.list(self, { listType: 'atomic' })),
    anyOf: t.field(27, t.list(self, { listType: 'atomic' })),
    not: t.field(28, self, { pointer: true }),
    properties: t.field(29, t.map(self), { description: 'The fields of an object.' }),
    additionalProperties: t.field(30, t.raw({ name: 'apiextensions.v1.JSONSchemaPropsOrBool' }), { pointer: true, description: 'The schema of the values of a map.' }),
    patternProperties: t.field(31, t.map(self)),
    dependencies: t.field(32, t.raw({ name: 'apiextensions.v1.JSONSchemaDependencies' }), { pointer: true }),
    additionalItems: t.field(33, t.raw({ name: 'apiextensions.v1.JSONSchemaPropsOrBool' }), { pointer: true }),
    definitions: t.field(34, t.map(self)),
    externalDocs: t.field(35, ExternalDocumentation, { pointer: true }),
    example: t.field(36, t.raw({ name: 'apiextensions.v1.JSON' }), { pointer: true }),
    nullable: t.field(37, t.bool()),
    [x.preserveUnknownFields]: t.field(38, t.bool(), { pointer: true, description: 'Keep fields the schema does not name, instead of pruning them.' }),
    [x.embeddedResource]: t.field(39, t.bool(), { description: 'The value is a whole object with apiVersion, kind and metadata.' }),
    [x.intOrString]: t.field(40, t.bool(), { description: 'The value is an integer or a string.' }),
    [x.listMapKeys]: t.field(41, t.list(t.string(), { listType: 'atomic' })),
    [x.listType]: t.field(42, t.string(), { pointer: true, description: 'How a list merges: atomic, set or map.' }),
    [x.mapType]: t.field(43, t.string(), { pointer: true, description: 'How an object merges: granular or atomic.' }),
    [x.validations]: t.field(44, t.list(ValidationRule, { listType: 'map', listMapKeys: ['rule'] })),
  }, { description: 'A JSON-Schema following Specification Draft 4 (http://json-schema.org/).' });
  schemaCache.set(names.openapiExtensionPrefix, schema);
  return schema;
}

/** One JSONSchemaProps as decoded: extension keys are looked up by SchemaExtensionKeys. */
export type JSONSchemaProps = Record<string, unknown> & {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  items?: unknown;
  additionalProperties?: unknown;
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  minItems?: number;
  maxProperties?: number;
  minProperties?: number;
  multipleOf?: number;
  uniqueItems?: boolean;
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
};

const CustomResourceDefinitionNames = t.struct('apiextensions.v1.CustomResourceDefinitionNames', {
  plural: t.required(1, t.string(), { always: true, description: 'The lowercase plural in URLs: /apis/<group>/<version>/<plural>.' }),
  singular: t.field(2, t.string(), { description: 'The lowercase singular name; defaults to the lowercased kind.' }),
  shortNames: t.field(3, t.list(t.string(), { listType: 'atomic' }), { description: 'Short names for `kubectl get`.' }),
  kind: t.required(4, t.string(), { always: true, description: 'The CamelCase kind of the objects.' }),
  listKind: t.field(5, t.string(), { description: 'The kind of lists; defaults to `<kind>List`.' }),
  categories: t.field(6, t.list(t.string(), { listType: 'atomic' }), { description: 'Groupings the resource belongs to, such as `all`.' }),
});

const ServiceReference = t.struct('apiextensions.v1.ServiceReference', {
  namespace: t.required(1, t.string(), { always: true }),
  name: t.required(2, t.string(), { always: true }),
  path: t.field(3, t.string(), { pointer: true }),
  port: t.field(4, t.int32(), { pointer: true }),
});

const WebhookClientConfig = t.struct('apiextensions.v1.WebhookClientConfig', {
  url: t.field(3, t.string(), { pointer: true }),
  service: t.field(1, ServiceReference, { pointer: true }),
  caBundle: t.field(2, t.bytes()),
});

const WebhookConversion = t.struct('apiextensions.v1.WebhookConversion', {
  clientConfig: t.field(2, WebhookClientConfig, { pointer: true }),
  conversionReviewVersions: t.required(3, t.list(t.string(), { listType: 'atomic' }), { always: true }),
});

const CustomResourceConversion = t.struct('apiextensions.v1.CustomResourceConversion', {
  strategy: t.required(1, t.string(), { always: true, description: 'None (only apiVersion changes) or Webhook.' }),
  webhook: t.field(2, WebhookConversion, { pointer: true }),
});

const CustomResourceSubresourceStatus = t.struct('apiextensions.v1.CustomResourceSubresourceStatus', {});
const CustomResourceSubresourceScale = t.struct('apiextensions.v1.CustomResourceSubresourceScale', {
  specReplicasPath: t.required(1, t.string(), { always: true }),
  statusReplicasPath: t.required(2, t.string(), { always: true }),
  labelSelectorPath: t.field(3, t.string(), { pointer: true }),
});
const CustomResourceSubresources = t.struct('apiextensions.v1.CustomResourceSubresources', {
  status: t.field(1, CustomResourceSubresourceStatus, { pointer: true }),
  scale: t.field(2, CustomResourceSubresourceScale, { pointer: true }),
});

const CustomResourceColumnDefinition = t.struct('apiextensions.v1.CustomResourceColumnDefinition', {
  name: t.required(1, t.string(), { always: true }),
  type: t.required(2, t.string(), { always: true }),
  format: t.field(3, t.string()),
  description: t.field(4, t.string()),
  priority: t.field(5, t.int32()),
  jsonPath: t.required(6, t.string(), { always: true }),
});

function versionSchema(names: ApiNames) {
  return t.struct('apiextensions.v1.CustomResourceDefinitionVersion', {
    name: t.required(1, t.string(), { always: true }),
    served: t.required(2, t.bool(), { always: true }),
    storage: t.required(3, t.bool(), { always: true }),
    deprecated: t.field(7, t.bool()),
    deprecationWarning: t.field(8, t.string(), { pointer: true }),
    schema: t.field(4, t.struct('apiextensions.v1.CustomResourceValidation', { openAPIV3Schema: t.field(1, jsonSchemaProps(names), { pointer: true }) }), { pointer: true }),
    subresources: t.field(5, CustomResourceSubresources, { pointer: true }),
    additionalPrinterColumns: t.field(6, t.list(CustomResourceColumnDefinition, { listType: 'atomic' })),
  });
}

const CustomResourceDefinitionCondition = t.struct('apiextensions.v1.CustomResourceDefinitionCondition', {
  type: t.required(1, t.string(), { always: true }),
  status: t.required(2, t.string(), { always: true }),
  lastTransitionTime: t.field(3, t.time()),
  reason: t.field(4, t.string()),
  message: t.field(5, t.string()),
});

const schemas = new Map<string, ReturnType<typeof makeCrdSchema>>();

function makeCrdSchema(names: ApiNames) {
  return t.struct('apiextensions.v1.CustomResourceDefinition', {
    ...objectHeader,
    spec: t.required(2, t.struct('apiextensions.v1.CustomResourceDefinitionSpec', {
      group: t.required(1, t.string(), { always: true, description: 'The API group of the resource: /apis/<group>/<version>.' }),
      names: t.required(3, CustomResourceDefinitionNames),
      scope: t.required(4, t.string(), { always: true, description: 'Cluster or Namespaced.' }),
      versions: t.required(7, t.list(versionSchema(names), { listType: 'atomic' }), { always: true }),
      conversion: t.field(9, CustomResourceConversion, { pointer: true }),
      preserveUnknownFields: t.field(10, t.bool()),
    })),
    status: t.field(3, t.struct('apiextensions.v1.CustomResourceDefinitionStatus', {
      conditions: t.field(1, t.list(CustomResourceDefinitionCondition, { listType: 'map', listMapKeys: ['type'] })),
      acceptedNames: t.field(2, CustomResourceDefinitionNames),
      storedVersions: t.field(3, t.list(t.string(), { listType: 'atomic' })),
    })),
  }, { description: 'A CustomResourceDefinition: a resource the server serves beside its built-in ones.' });
}

export function crdSchema(names: ApiNames): ReturnType<typeof makeCrdSchema> {
  let s = schemas.get(names.domain);
  if (!s) schemas.set(names.domain, (s = makeCrdSchema(names)));
  return s;
}

export type CustomResourceDefinition = ObjectOf<ReturnType<typeof makeCrdSchema>>;
export type CrdSpec = CustomResourceDefinition['spec'];
export type CrdVersion = CrdSpec['versions'][number];
export type CrdNames = CrdSpec['names'];
export type CrdCondition = Infer<typeof CustomResourceDefinitionCondition>;
export type CrdColumn = Infer<typeof CustomResourceColumnDefinition>;
