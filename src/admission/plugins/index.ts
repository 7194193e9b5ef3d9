/**
 * The one ordered list of admission plugins: every plugin kube-apiserver 1.25 knows, in its order
 * (AllOrderedPlugins), with whether 1.25 runs it by default and, for those this server implements,
 * how to make it. The server runs the enabled plugins in this order whatever order the flags name
 * them in: every mutating phase in order, then every validating phase in order.
 *
 * To add a plugin: write it in `plugins/<name>/` (a factory returning an AdmissionPlugin, with its
 * unit tests), then give its slot below a `make`. A slot without `make` is a plugin Kubernetes has
 * and this server does not (yet): naming it in `--enable-admission-plugins` stops the start with a
 * message saying so, and a default-on one is left out of the default set until it has a `make`.
 */
import { Registry } from 'prom-client';
import type { ApiNames } from '../../machinery/api-names.js';
import type { ListerSource } from '../../machinery/lister.js';
import type { Logger } from '../../machinery/logger.js';
import type { ResourceRegistry } from '../../registry/registry.js';
import type { PluginConfiguration } from '../config-file.js';
import type { ObjectWriter } from '../object-writer.js';
import type { AdmissionSettings } from '../options.js';
import type { AdmissionPlugin } from '../types.js';
import { certificateApproval, type SignerAuthorizer } from './certificate-approval/index.js';
import { certificateSigning } from './certificate-signing/index.js';
import { certificateSubjectRestriction } from './certificate-subject-restriction/index.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook, webhookAdmissionSettings, type WebhookPluginDeps } from '../webhook/index.js';
import { defaultIngressClass } from './default-ingress-class/index.js';
import { defaultStorageClass } from './default-storage-class/index.js';
import { defaultTolerationSeconds } from './default-toleration-seconds/index.js';
import { limitRanger } from './limit-ranger/index.js';
import { namespaceLifecycle } from './namespace-lifecycle/index.js';
import { persistentVolumeClaimResize } from './persistent-volume-claim-resize/index.js';
import { podSecurity } from './pod-security/index.js';
import { priority } from './priority/index.js';
import { resourceQuota } from './resource-quota/index.js';
import { runtimeClass } from './runtime-class/index.js';
import { securityContextDeny } from './security-context-deny/index.js';
import { serviceAccountAdmission } from './service-account/index.js';
import { storageObjectInUseProtection } from './storage-object-in-use-protection/index.js';
import { taintNodesByCondition } from './taint-nodes-by-condition/index.js';

/** What a plugin is made from. Extend it when a plugin needs more (a client, metrics, the audit sink). */
export interface PluginContext {
  readonly names: ApiNames;
  readonly listers: ListerSource;
  readonly settings: AdmissionSettings;
  /** This plugin's entry in `--admission-control-config-file`, undefined when it has none. */
  readonly configuration: PluginConfiguration | undefined;
  /** Writes other stored objects as the server (ResourceQuota's charges); bound once the stores are open. */
  readonly writer: ObjectWriter;
  /** The server's authorizer (plugins are made before it exists, so it may answer only once the server runs). */
  readonly authorizer: SignerAuthorizer;
  readonly log?: Logger;
  /** The server's metrics registry; plugins made without one (unit tests) get a registry of their own. */
  readonly metrics?: Registry;
  /** The served resources, read at admission time; none when absent. */
  readonly servedResources?: Pick<ResourceRegistry, 'all'>;
}

export interface PluginSlot {
  readonly name: string;
  /** Whether kube-apiserver 1.25 runs it without being asked (DefaultOffAdmissionPlugins' complement). */
  readonly defaultOn: boolean;
  /** Absent: known to Kubernetes, not implemented here. */
  readonly make?: (c: PluginContext) => AdmissionPlugin;
}

const core = <T>(c: PluginContext, resource: string) => c.listers.for<T>('', resource);

const webhookDeps = (c: PluginContext, plugin: string): WebhookPluginDeps => ({
  names: c.names,
  listers: c.listers,
  registry: c.servedResources ?? { all: () => [] },
  metrics: c.metrics ?? new Registry(),
  ...(c.log ? { log: c.log } : {}),
  ...webhookAdmissionSettings(c.names, c.configuration, plugin),
});

export const ORDERED_PLUGINS: readonly PluginSlot[] = [
  { name: 'AlwaysAdmit', defaultOn: false },
  { name: 'NamespaceAutoProvision', defaultOn: false },
  { name: 'NamespaceLifecycle', defaultOn: true, make: (c) => namespaceLifecycle(c.names, core(c, 'namespaces')) },
  { name: 'NamespaceExists', defaultOn: false },
  { name: 'SecurityContextDeny', defaultOn: false, make: (c) => securityContextDeny(c.names) },
  { name: 'LimitPodHardAntiAffinityTopology', defaultOn: false },
  { name: 'LimitRanger', defaultOn: true, make: (c) => limitRanger(c.names, core(c, 'limitranges')) },
  { name: 'ServiceAccount', defaultOn: true, make: (c) => serviceAccountAdmission(c.names, { serviceAccounts: core(c, 'serviceaccounts'), namespaces: core(c, 'namespaces') }) },
  { name: 'NodeRestriction', defaultOn: false },
  { name: 'TaintNodesByCondition', defaultOn: true, make: (c) => taintNodesByCondition(c.names) },
  { name: 'AlwaysPullImages', defaultOn: false },
  { name: 'ImagePolicyWebhook', defaultOn: false },
  { name: 'PodSecurity', defaultOn: true, make: (c) => podSecurity(c.names, core(c, 'namespaces'), core(c, 'pods'), c.configuration) },
  { name: 'PodNodeSelector', defaultOn: false },
  { name: 'Priority', defaultOn: true, make: (c) => priority(c.names, c.listers.for(c.names.group('scheduling'), 'priorityclasses')) },
  { name: 'DefaultTolerationSeconds', defaultOn: true, make: (c) => defaultTolerationSeconds(c.names, c.settings) },
  { name: 'PodTolerationRestriction', defaultOn: false },
  { name: 'EventRateLimit', defaultOn: false },
  { name: 'ExtendedResourceToleration', defaultOn: false },
  { name: 'PersistentVolumeLabel', defaultOn: false },
  { name: 'DefaultStorageClass', defaultOn: true, make: (c) => defaultStorageClass(c.names, c.listers.for(c.names.group('storage'), 'storageclasses')) },
  { name: 'StorageObjectInUseProtection', defaultOn: true, make: (c) => storageObjectInUseProtection(c.names) },
  { name: 'OwnerReferencesPermissionEnforcement', defaultOn: false },
  {
    name: 'PersistentVolumeClaimResize',
    defaultOn: true,
    make: (c) => persistentVolumeClaimResize(c.names, c.listers.for(c.names.group('storage'), 'storageclasses')),
  },
  { name: 'RuntimeClass', defaultOn: true, make: (c) => runtimeClass(c.names, c.listers.for(c.names.group('node'), 'runtimeclasses')) },
  // The three certificate plugins come with the certificates controllers (their own helper).
  { name: 'CertificateApproval', defaultOn: true, make: (c) => certificateApproval(c.names, c.authorizer) },
  { name: 'CertificateSigning', defaultOn: true, make: (c) => certificateSigning(c.names, c.authorizer) },
  { name: 'CertificateSubjectRestriction', defaultOn: true, make: (c) => certificateSubjectRestriction(c.names) },
  { name: 'DefaultIngressClass', defaultOn: true, make: (c) => defaultIngressClass(c.names, c.listers.for(c.names.group('networking'), 'ingressclasses')) },
  { name: 'DenyServiceExternalIPs', defaultOn: false },
  // Webhooks, quota and deny go last, as in Kubernetes: webhooks see what every built-in plugin
  // made of the object (src/admission/webhook/).
  { name: 'MutatingAdmissionWebhook', defaultOn: true, make: (c) => mutatingAdmissionWebhook(webhookDeps(c, 'MutatingAdmissionWebhook')) },
  { name: 'ValidatingAdmissionWebhook', defaultOn: true, make: (c) => validatingAdmissionWebhook(webhookDeps(c, 'ValidatingAdmissionWebhook')) },
  // Quota counts only what admission let through.
  { name: 'ResourceQuota', defaultOn: true, make: (c) => resourceQuota(c.names, core(c, 'resourcequotas'), c.writer) },
  { name: 'AlwaysDeny', defaultOn: false },
];

/** The names of the plugins this server implements, in order. */
export function implementedPluginNames(): string[] {
  return ORDERED_PLUGINS.filter((p) => p.make).map((p) => p.name);
}

export interface PluginChoice {
  /** `--enable-admission-plugins` */
  readonly enable?: readonly string[];
  /** `--disable-admission-plugins` */
  readonly disable?: readonly string[];
}

/**
 * The plugins to run, in order: 1.25's default-on set among those implemented, plus `enable`,
 * minus `disable`. Throws Error naming the problem: an unknown name (with the names this server
 * implements), a Kubernetes plugin this server does not implement asked to be enabled, or a name
 * in both lists. Disabling a plugin this server does not implement is accepted: it does not run.
 */
export function selectPlugins(choice: PluginChoice): PluginSlot[] {
  const known = new Map(ORDERED_PLUGINS.map((p) => [p.name, p]));
  const implemented = implementedPluginNames().join(', ');
  const problems: string[] = [];
  for (const [flag, list] of [
    ['enable-admission-plugins', choice.enable ?? []],
    ['disable-admission-plugins', choice.disable ?? []],
  ] as const) {
    for (const name of list) {
      const slot = known.get(name);
      if (!slot) problems.push(`${flag} plugin ${JSON.stringify(name)} is unknown; the plugins this server implements are: ${implemented}`);
      else if (!slot.make && flag === 'enable-admission-plugins') {
        problems.push(`${flag} plugin ${JSON.stringify(name)} is a Kubernetes 1.25 admission plugin this server does not implement; the plugins it implements are: ${implemented}`);
      }
    }
  }
  const disabled = new Set(choice.disable ?? []);
  const overlap = [...new Set(choice.enable ?? [])].filter((n) => disabled.has(n)).sort();
  if (overlap.length) problems.push(`[${overlap.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  if (problems.length) throw new Error(problems.join('; '));
  const enabled = new Set(choice.enable ?? []);
  return ORDERED_PLUGINS.filter((p) => p.make && (p.defaultOn || enabled.has(p.name)) && !disabled.has(p.name));
}
