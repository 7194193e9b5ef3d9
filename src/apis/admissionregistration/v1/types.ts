/**
 * The webhook types of admissionregistration/v1 (Kubernetes 1.25), shared by the validating and
 * mutating configurations. Protobuf numbers follow Kubernetes' generated.proto.
 *
 * RuleWithOperations embeds Rule: in JSON its fields sit beside `operations`, in protobuf they are
 * the nested message field 2 (t.inline).
 */
import { LabelSelector, t, type FieldSpec, type Infer } from '../../../schema/index.js';

export const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export const SCOPES = ['Cluster', 'Namespaced', '*'] as const;
export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;
export const MATCH_POLICIES = ['Exact', 'Equivalent'] as const;
export const SIDE_EFFECT_CLASSES = ['Unknown', 'None', 'Some', 'NoneOnDryRun'] as const;
export const REINVOCATION_POLICIES = ['Never', 'IfNeeded'] as const;

export const Rule = t.struct('admissionregistration.v1.Rule', {
  apiGroups: t.field(1, t.list(t.string()), { description: "The API groups of the resources; \"\" is the core group, '*' all groups (then alone)." }),
  apiVersions: t.field(2, t.list(t.string()), { description: "The API versions of the resources; '*' all versions (then alone)." }),
  resources: t.field(3, t.list(t.string()), {
    description: "'pods'; 'pods/log' a subresource; '*' all resources without subresources; 'pods/*' every subresource of pods; '*/scale' every scale subresource; '*/*' everything.",
  }),
  scope: t.field(4, t.string({ enum: SCOPES }), {
    pointer: true,
    description: 'Cluster, Namespaced or * (the default). Namespaces are cluster-scoped; subresources have the scope of their parent.',
  }),
});

export const RuleWithOperations = t.struct('admissionregistration.v1.RuleWithOperations', {
  operations: t.field(1, t.list(t.string({ enum: OPERATIONS })), {
    description: "The operations the webhook cares about: CREATE, UPDATE, DELETE, CONNECT, or '*' for all (then alone).",
  }),
  ...t.inline(2, 'rule', Rule),
}, { description: 'Which operations on which resources a webhook is called for.' });
export type RuleWithOperations = Infer<typeof RuleWithOperations>;

export const ServiceReference = t.struct('admissionregistration.v1.ServiceReference', {
  namespace: t.required(1, t.string(), { always: true, description: 'The namespace of the service.' }),
  name: t.required(2, t.string(), { always: true, description: 'The name of the service.' }),
  path: t.field(3, t.string(), { pointer: true, description: 'The URL path sent in every request to the service; "/" when unset.' }),
  port: t.field(4, t.int32(), { pointer: true, description: 'The port of the service, 1 to 65535. Defaults to 443.' }),
}, { description: 'A service in the cluster that serves the webhook.' });
export type ServiceReference = Infer<typeof ServiceReference>;

export const WebhookClientConfig = t.struct('admissionregistration.v1.WebhookClientConfig', {
  url: t.field(3, t.string(), {
    pointer: true,
    description: 'Where the webhook is, as https://host[:port][/path]; no user info, query or fragment. Exactly one of url and service.',
  }),
  service: t.field(1, ServiceReference, { pointer: true, description: 'The in-cluster service of the webhook. Exactly one of url and service.' }),
  caBundle: t.field(2, t.bytes(), { description: "PEM CA certificates to verify the webhook's serving certificate with; the system roots when unset." }),
}, { description: 'How to reach the webhook over TLS.' });
export type WebhookClientConfig = Infer<typeof WebhookClientConfig>;

/** The fields both webhook kinds share, by name; the selectors differ in protobuf number. */
function webhookFields(objectSelectorProto: number) {
  return {
    name: t.required(1, t.string(), {
      always: true,
      description: 'The name of the webhook, a qualified DNS name of at least three segments (imagepolicy.example.com). Unique in the configuration.',
    }),
    clientConfig: t.required(2, WebhookClientConfig, { description: 'How to reach the webhook.' }),
    rules: t.field(3, t.list(RuleWithOperations), { description: 'The operations and resources the webhook is called for: any matching rule counts.' }),
    failurePolicy: t.field(4, t.string({ enum: FAILURE_POLICIES }), {
      pointer: true,
      description: 'What an error calling the webhook means: Fail (the default) rejects the request, Ignore lets it through.',
    }),
    matchPolicy: t.field(9, t.string({ enum: MATCH_POLICIES }), {
      pointer: true,
      description: 'Exact: only requests matching a rule as written. Equivalent (the default): also the same resource through another group or version, converted.',
    }),
    namespaceSelector: t.field(5, LabelSelector, {
      pointer: true,
      description: "Runs the webhook only for objects whose namespace's labels match (for a namespace, its own labels). No effect on other cluster-scoped objects. Defaults to everything.",
    }),
    objectSelector: t.field(objectSelectorProto, LabelSelector, {
      pointer: true,
      description: 'Runs the webhook only when the object or the old object has matching labels. Defaults to everything.',
    }),
    sideEffects: t.required(6, t.string({ enum: SIDE_EFFECT_CLASSES }), {
      pointer: true,
      description: 'Whether calling the webhook has side effects: None or NoneOnDryRun. Dry-run requests are refused for webhooks with side effects.',
    }),
    timeoutSeconds: t.field(7, t.int32(), { pointer: true, description: 'How long to wait for the webhook, 1 to 30 seconds; 10 by default.' }),
    admissionReviewVersions: t.required(8, t.list(t.string()), {
      always: true,
      description: 'The AdmissionReview versions the webhook accepts, preferred first; at least one the server speaks (v1, v1beta1).',
    }),
  } satisfies Record<string, FieldSpec>;
}

export const ValidatingWebhook = t.struct('admissionregistration.v1.ValidatingWebhook', webhookFields(10), {
  description: 'An admission webhook that accepts or rejects requests, and what it is called for.',
});
export type ValidatingWebhook = Infer<typeof ValidatingWebhook>;

export const MutatingWebhook = t.struct('admissionregistration.v1.MutatingWebhook', {
  ...webhookFields(11),
  reinvocationPolicy: t.field(10, t.string({ enum: REINVOCATION_POLICIES }), {
    pointer: true,
    description: 'Never (the default), or IfNeeded: called again when later plugins changed the object after it. Such webhooks must be idempotent.',
  }),
}, { description: 'An admission webhook that may change objects, and what it is called for.' });
export type MutatingWebhook = Infer<typeof MutatingWebhook>;
