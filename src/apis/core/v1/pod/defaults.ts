/**
 * Kubernetes 1.25 defaulting of pods and pod templates. The spec defaults apply wherever a PodSpec
 * appears (pods, and templates in workloads); a few apply to Pod objects only, as in Kubernetes, so
 * that templates do not change under their owners. Every function mutates its argument.
 */
import { formatQuantity, parseQuantity, roundUpQuantity } from '../../../../machinery/quantity.js';
import type { ObjectFieldSelector } from './container.js';
import type { Container } from './container.js';
import { defaultPullPolicy } from './image.js';
import type { PodSpec, PodTemplateSpec } from './pod-spec.js';
import type { PodStatus } from './pod-status.js';
import type { HTTPGetAction, LifecycleHandler, Probe } from './probes.js';
import type { DownwardAPIVolumeFile, Volume } from './volumes.js';
import { volumeSourceOf } from './validation/volumes.js';

/** 0644: the file mode of secret, configMap, downwardAPI and projected volumes. */
export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_TERMINATION_GRACE_PERIOD = 30;
export const DEFAULT_SCHEDULER = 'default-scheduler';
export const TERMINATION_MESSAGE_PATH = '/dev/termination-log';

/** Resource amounts are kept to milli precision, rounding up (Kubernetes' SetDefaults_ResourceList). */
export function roundResourceList(list: Record<string, string> | undefined): void {
  if (!list) return;
  for (const [k, v] of Object.entries(list)) list[k] = formatQuantity(roundUpQuantity(parseQuantity(v), -3));
}

function defaultFieldRef(ref: ObjectFieldSelector | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}

function defaultHttpGet(get: HTTPGetAction | undefined): void {
  if (!get) return;
  if (!get.path) get.path = '/';
  if (!get.scheme) get.scheme = 'HTTP';
}

function defaultProbe(probe: Probe | undefined): void {
  if (!probe) return;
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHttpGet(probe.httpGet);
  if (probe.grpc && probe.grpc.service === undefined) probe.grpc.service = '';
}

function defaultHandler(h: LifecycleHandler | undefined): void {
  defaultHttpGet(h?.httpGet);
}

export function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicy(c.image ?? '');
  if (!c.terminationMessagePath) c.terminationMessagePath = TERMINATION_MESSAGE_PATH;
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const port of c.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
  for (const ev of c.env ?? []) defaultFieldRef(ev.valueFrom?.fieldRef);
  roundResourceList(c.resources.limits);
  roundResourceList(c.resources.requests);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
}

function defaultDownwardFiles(files: DownwardAPIVolumeFile[] | undefined): void {
  for (const f of files ?? []) defaultFieldRef(f.fieldRef);
}

export function defaultVolume(v: Volume): void {
  if (volumeSourceOf(v) === undefined) v.emptyDir = {};
  if (v.secret && v.secret.defaultMode === undefined) v.secret.defaultMode = DEFAULT_FILE_MODE;
  if (v.configMap && v.configMap.defaultMode === undefined) v.configMap.defaultMode = DEFAULT_FILE_MODE;
  if (v.downwardAPI) {
    if (v.downwardAPI.defaultMode === undefined) v.downwardAPI.defaultMode = DEFAULT_FILE_MODE;
    defaultDownwardFiles(v.downwardAPI.items);
  }
  if (v.projected) {
    if (v.projected.defaultMode === undefined) v.projected.defaultMode = DEFAULT_FILE_MODE;
    for (const s of v.projected.sources ?? []) {
      if (s.serviceAccountToken && s.serviceAccountToken.expirationSeconds === undefined) s.serviceAccountToken.expirationSeconds = 3600;
      defaultDownwardFiles(s.downwardAPI?.items);
    }
  }
  if (v.hostPath && v.hostPath.type === undefined) v.hostPath.type = '';
  if (v.iscsi && !v.iscsi.iscsiInterface) v.iscsi.iscsiInterface = 'default';
  if (v.rbd) {
    v.rbd.pool ||= 'rbd';
    v.rbd.user ||= 'admin';
    v.rbd.keyring ||= '/etc/ceph/keyring';
  }
  if (v.azureDisk) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.kind ??= 'Shared';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
  }
  if (v.scaleIO) {
    v.scaleIO.storageMode ||= 'ThinProvisioned';
    v.scaleIO.fsType ||= 'xfs';
  }
  const claim = v.ephemeral?.volumeClaimTemplate?.spec;
  if (claim) {
    claim.volumeMode ??= 'Filesystem';
    roundResourceList(claim.resources.limits);
    roundResourceList(claim.resources.requests);
  }
}

/** Defaults of every PodSpec (SetDefaults_PodSpec and the defaults of its parts). */
export function defaultPodSpec(spec: PodSpec): void {
  // `serviceAccount` is the deprecated spelling of `serviceAccountName`: read either, write both.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD;
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER;
  spec.containers ??= [];
  if (spec.hostNetwork) {
    // On the host's network a container port is a host port.
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
      for (const port of c.ports ?? []) if (!port.hostPort) port.hostPort = port.containerPort;
    }
  }
  for (const v of spec.volumes ?? []) defaultVolume(v);
  for (const c of spec.containers) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
  roundResourceList(spec.overhead);
}

export function defaultPodTemplateSpec(tpl: PodTemplateSpec): void {
  defaultPodSpec(tpl.spec);
}

/** Defaults only a Pod gets: requests from limits, service links; then the spec's. */
export function defaultPodObject(pod: { spec: PodSpec; status: PodStatus }): void {
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    const limits = c.resources.limits;
    if (!limits) continue;
    const requests = (c.resources.requests ??= {});
    for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
  }
  pod.spec.enableServiceLinks ??= true;
  defaultPodSpec(pod.spec);
  // podIP and podIPs say the same thing; podIP wins when they disagree (older clients write only it).
  const status = pod.status;
  if (status.podIP && (status.podIPs ?? [])[0]?.ip !== status.podIP) status.podIPs = [{ ip: status.podIP }];
  else if (!status.podIP && status.podIPs?.[0]?.ip) status.podIP = status.podIPs[0].ip;
}
