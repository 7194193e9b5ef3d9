/**
 * PodSecurity: the Pod Security Standards (baseline, restricted) per namespace, as kube-apiserver
 * 1.25 runs them. Pods are refused by the namespace's `enforce` level (403, Kubernetes' message),
 * get a Warning for its `warn` level and an audit annotation for its `audit` level; workload
 * resources' pod templates get the warning and the annotation only. Labels are checked on
 * namespaces (422 for a bad value), and a namespace whose enforce level tightens gets warnings
 * naming the existing pods that would now be refused. Usernames, runtime classes and namespaces may
 * be exempted, and the defaults set, by the admission configuration file's PodSecurityConfiguration.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { errors } from '../../../machinery/errors.js';
import { fieldErr, fieldErrorText, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import type { Lister } from '../../../machinery/lister.js';
import { admissionForbidden } from '../../forbidden.js';
import { recordAuditAnnotation } from '../../webhook/audit.js';
import type { PluginConfiguration } from '../../config-file.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';
import { evaluatePod, forbiddenDetail, forbiddenReasons, LATEST_MINOR, type CheckKeys, type PodMetaInfo, type PodSpecInfo } from './checks.js';
import {
  compareLevels,
  DEFAULT_POD_SECURITY_CONFIG,
  levelVersionText,
  parsePodSecurityConfig,
  policyFromLabels,
  policyLabelKeys,
  type LabelProblem,
  type LevelVersion,
  type Policy,
  type PodSecurityConfig,
} from './policy.js';

interface Meta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { uid: string; controller?: boolean }[];
}
export interface NamespaceInfo {
  metadata: Meta;
}
export interface PodInfo {
  metadata: Meta;
  spec?: PodSpecInfo & { runtimeClassName?: string; containers?: { name: string; image?: string }[] };
}

/** Pod subresources that cannot change what the checks read. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);
/** Kubernetes checks at most this many existing pods when a namespace's enforce level tightens. */
const MAX_PODS_TO_CHECK = 3000;

/** The pod template of a workload resource (`group/resource`), or undefined for anything else. */
function podTemplateOf(group: string, resource: string, obj: unknown): { metadata?: PodMetaInfo; spec?: PodInfo['spec'] } | undefined | null {
  const o = obj as Record<string, Record<string, unknown> | undefined>;
  const spec = o.spec as Record<string, unknown> | undefined;
  const key = `${group}/${resource}`;
  switch (key) {
    case '/podtemplates':
      return (o.template as never) ?? null;
    case '/replicationcontrollers':
    case 'apps/replicasets':
    case 'apps/deployments':
    case 'apps/statefulsets':
    case 'apps/daemonsets':
    case 'batch/jobs':
      return (spec?.template as never) ?? null;
    case 'batch/cronjobs':
      return (((spec?.jobTemplate as Record<string, Record<string, unknown>> | undefined)?.spec?.template) as never) ?? null;
    default:
      return undefined;
  }
}

export function podSecurity(names: ApiNames, namespaces: Lister<NamespaceInfo>, pods: Lister<PodInfo>, configuration: PluginConfiguration | undefined): AdmissionPlugin {
  const config: PodSecurityConfig = configuration ? parsePodSecurityConfig(configuration.value, names, configuration.source) : DEFAULT_POD_SECURITY_CONFIG;
  const labelKeys = policyLabelKeys(names);
  const annotation = (k: string): string => names.labelSubKey('pod-security', k);
  const checkKeys: CheckKeys = {
    seccompPod: names.labelSubKey('seccomp.security.alpha', 'pod'),
    seccompContainerPrefix: names.labelSubKey('container.seccomp.security.alpha', ''),
    appArmorContainerPrefix: names.labelSubKey('container.apparmor.security.beta', ''),
  };
  const minorOf = (lv: LevelVersion): number => (lv.version === 'latest' ? LATEST_MINOR : lv.version);
  const evaluate = (lv: LevelVersion, meta: PodMetaInfo | undefined, spec: PodSpecInfo | undefined) => evaluatePod(lv.level, minorOf(lv), meta ?? {}, spec ?? {}, checkKeys);
  const annotate = (a: AdmissionAttributes, key: string, value: string): void => {
    recordAuditAnnotation(a.audit, annotation(key), value);
  };
  const exemptNamespace = (ns: string): boolean => config.exemptions.namespaces.includes(ns);
  const exemptUser = (a: AdmissionAttributes): boolean => !!a.user && config.exemptions.usernames.includes(a.user.username);
  const exemptRuntimeClass = (rc: string | undefined): boolean => rc !== undefined && config.exemptions.runtimeClasses.includes(rc);
  const policyOf = (labels: Record<string, string> | undefined) => policyFromLabels(labels, config.defaults, labelKeys);
  const fieldErrors = (problems: readonly LabelProblem[]): FieldError[] => problems.map((p) => fieldErr.invalid(FieldPath.root('metadata').child('labels').key(p.label), p.value, p.message));
  const problemText = (problems: readonly LabelProblem[]): string => {
    const texts = fieldErrors(problems).map(fieldErrorText);
    return texts.length === 1 ? (texts[0] as string) : `[${texts.join(', ')}]`;
  };

  /** Enforce (when asked), audit and warn of one pod or template; throws the 403 after annotating. */
  const evaluatePodLike = (a: AdmissionAttributes, policy: Policy, problems: readonly LabelProblem[], meta: PodMetaInfo | undefined, spec: PodInfo['spec'], enforce: boolean): void => {
    if (exemptRuntimeClass(spec?.runtimeClassName)) {
      annotate(a, 'exempt', 'runtimeClass');
      return;
    }
    if (problems.length) annotate(a, 'error', `Failed to parse policy: ${problemText(problems)}`);
    const cached = new Map<string, ReturnType<typeof evaluate>>();
    const resultOf = (lv: LevelVersion) => {
      const k = levelVersionText(lv);
      const have = cached.get(k);
      if (have) return have;
      const r = evaluate(lv, meta, spec);
      cached.set(k, r);
      return r;
    };
    let refusal: string | undefined;
    if (enforce) {
      annotate(a, 'enforce-policy', levelVersionText(policy.enforce));
      const r = resultOf(policy.enforce);
      if (r.length) refusal = `violates PodSecurity ${JSON.stringify(levelVersionText(policy.enforce))}: ${forbiddenDetail(r)}`;
    }
    const audit = resultOf(policy.audit);
    if (audit.length) annotate(a, 'audit-violations', `would violate PodSecurity ${JSON.stringify(levelVersionText(policy.audit))}: ${forbiddenDetail(audit)}`);
    if (refusal) throw admissionForbidden(a, refusal);
    const warn = resultOf(policy.warn);
    if (warn.length) a.warnings?.push(`would violate PodSecurity ${JSON.stringify(levelVersionText(policy.warn))}: ${forbiddenDetail(warn)}`);
  };

  const fullyPrivileged = (p: Policy): boolean => p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

  const validatePod = (a: AdmissionAttributes): void => {
    if (IGNORED_POD_SUBRESOURCES.has(a.subresource) || a.operation === 'DELETE' || a.operation === 'CONNECT' || !a.object) return;
    if (exemptNamespace(a.namespace)) return annotate(a, 'exempt', 'namespace');
    if (exemptUser(a)) return annotate(a, 'exempt', 'user');
    const ns = namespaces.get('', a.namespace);
    if (!ns) return;
    const { policy, problems } = policyOf(ns.metadata.labels);
    if (problems.length === 0 && fullyPrivileged(policy)) return;
    const pod = a.object as unknown as PodInfo;
    if (a.operation === 'UPDATE' && a.oldObject && !significantPodUpdate(pod, a.oldObject as unknown as PodInfo)) return;
    evaluatePodLike(a, policy, problems, pod.metadata, pod.spec, true);
  };

  const validateController = (a: AdmissionAttributes): void => {
    if (a.subresource !== '' || (a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return;
    const template = podTemplateOf(a.group, a.resource, a.object);
    if (template === undefined) return;
    if (exemptNamespace(a.namespace)) return annotate(a, 'exempt', 'namespace');
    if (exemptUser(a)) return annotate(a, 'exempt', 'user');
    const ns = namespaces.get('', a.namespace);
    if (!ns) return;
    const { policy, problems } = policyOf(ns.metadata.labels);
    if (problems.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    if (template === null) return;
    evaluatePodLike(a, policy, problems, template.metadata, template.spec, false);
  };

  const podsViolating = (namespace: string, enforce: LevelVersion): string[] => {
    const all = pods.list(namespace).filter((p) => !exemptRuntimeClass(p.spec?.runtimeClassName));
    // One pod per controller first, so a big workload does not hide the others.
    const seen = new Set<string>();
    const first: PodInfo[] = [];
    const rest: PodInfo[] = [];
    for (const p of all) {
      const owner = p.metadata.ownerReferences?.find((r) => r.controller)?.uid;
      if (owner && seen.has(owner)) rest.push(p);
      else {
        if (owner) seen.add(owner);
        first.push(p);
      }
    }
    const ordered = [...first, ...rest];
    const checked = ordered.slice(0, MAX_PODS_TO_CHECK);
    const byWarning = new Map<string, { name: string; count: number }>();
    for (const p of checked) {
      const r = evaluate(enforce, p.metadata, p.spec);
      if (!r.length) continue;
      const w = forbiddenReasons(r);
      const name = p.metadata.name ?? '';
      const c = byWarning.get(w);
      if (!c) byWarning.set(w, { name, count: 1 });
      else {
        c.count++;
        if (name < c.name) c.name = name;
      }
    }
    const out: string[] = [];
    if (checked.length < ordered.length) out.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${ordered.length} existing pods`);
    if (byWarning.size) out.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionText(enforce))}`);
    const decorated = [...byWarning].map(([w, c]) => (c.count === 1 ? `${c.name}: ${w}` : c.count === 2 ? `${c.name} (and 1 other pod): ${w}` : `${c.name} (and ${c.count - 1} other pods): ${w}`));
    return [...out, ...decorated.sort()];
  };

  const validateNamespace = (a: AdmissionAttributes): void => {
    if (a.subresource !== '' || !a.object) return;
    const ns = a.object as unknown as NamespaceInfo;
    const name = ns.metadata.name ?? a.name;
    const next = policyOf(ns.metadata.labels);
    const invalid = (): never => {
      throw errors.invalid({ group: '', kind: 'Namespace' }, name, fieldErrors(next.problems));
    };
    if (a.operation === 'CREATE') {
      if (next.problems.length) invalid();
      return;
    }
    if (a.operation !== 'UPDATE' || !a.oldObject) return;
    const before = policyOf((a.oldObject as unknown as NamespaceInfo).metadata.labels);
    if (next.problems.length && (before.problems.length === 0 || JSON.stringify(before.problems) !== JSON.stringify(next.problems))) invalid();
    const [n, o] = [next.policy.enforce, before.policy.enforce];
    if (levelVersionText(n) === levelVersionText(o) || n.level === 'privileged') return;
    if (n.version === o.version && compareLevels(n.level, o.level) < 1) return;
    if (exemptNamespace(name)) return;
    a.warnings?.push(...podsViolating(name, n));
  };

  return {
    name: 'PodSecurity',
    validate(a) {
      if (a.group === '' && a.resource === 'namespaces') return validateNamespace(a);
      if (a.group === '' && a.resource === 'pods') return validatePod(a);
      return validateController(a);
    },
  };
}

/** Whether a pod update can change what the checks see: containers or their images. */
function significantPodUpdate(pod: PodInfo, old: PodInfo): boolean {
  type C = { name: string; image?: string };
  const list = (p: PodInfo, f: 'containers' | 'initContainers' | 'ephemeralContainers'): C[] => ((p.spec as Record<string, unknown> | undefined)?.[f] as C[] | undefined) ?? [];
  for (const f of ['containers', 'initContainers'] as const) {
    const a = list(pod, f);
    const b = list(old, f);
    if (a.length !== b.length || a.some((c, i) => c.image !== b[i]?.image)) return true;
  }
  const before = new Map(list(old, 'ephemeralContainers').map((c) => [c.name, c]));
  if (list(pod, 'ephemeralContainers').some((c) => before.get(c.name)?.image !== c.image || !before.has(c.name))) return true;
  return JSON.stringify(pod.metadata.annotations ?? {}) !== JSON.stringify(old.metadata.annotations ?? {});
}
