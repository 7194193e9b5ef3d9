/**
 * Containers and init containers: names, image, ports, environment, mounts and devices, probes and
 * hooks, pull and termination-message policies, resources and security context.
 */
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import type { Container, ContainerPort, VolumeDevice, VolumeMount } from '../container.js';
import type { Volume } from '../volumes.js';
import { portNameProblems, portNumberProblems, validateDns1123Label, validatePathNoBacksteps } from '../../types/index.js';
import { validateLocalDescendingPath } from './common.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { validateLifecycle, validateProbe } from './probes.js';
import { validateResourceRequirements } from './resources.js';
import { validateContainerSecurityContext } from './security.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];

function validatePorts(ports: readonly ContainerPort[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const p = path.index(i);
    if (port.name) {
      const msgs = portNameProblems(port.name);
      if (msgs.length) for (const m of msgs) errs.push(fieldErr.invalid(p.child('name'), port.name, m));
      else if (names.has(port.name)) errs.push(fieldErr.duplicate(p.child('name'), port.name));
      else names.add(port.name);
    }
    if (port.containerPort === 0) errs.push(fieldErr.required(p.child('containerPort')));
    else for (const m of portNumberProblems(port.containerPort)) errs.push(fieldErr.invalid(p.child('containerPort'), port.containerPort, m));
    if (port.hostPort) for (const m of portNumberProblems(port.hostPort)) errs.push(fieldErr.invalid(p.child('hostPort'), port.hostPort, m));
    if (!port.protocol) errs.push(fieldErr.required(p.child('protocol')));
    else if (!PROTOCOLS.includes(port.protocol)) errs.push(fieldErr.notSupported(p.child('protocol'), port.protocol, PROTOCOLS));
  });
  return errs;
}

/** Two ports of the pod may not claim the same host address, protocol and port. */
function validateHostPortConflicts(containers: readonly Container[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const key = `${port.hostIP ?? ''}/${port.protocol ?? ''}/${port.hostPort}`;
      if (seen.has(key)) errs.push(fieldErr.duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      seen.add(key);
    });
  });
  return errs;
}

function validateMounts(c: Container, volumes: ReadonlyMap<string, Volume>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map((c.volumeDevices ?? []).map((d) => [d.name, d.devicePath]));
  const devicePaths = new Set(devices.values());
  const mountPaths = new Set<string>();
  (c.volumeMounts ?? []).forEach((m: VolumeMount, i) => {
    const p = path.index(i);
    if (!m.name) errs.push(fieldErr.required(p.child('name')));
    if (!volumes.has(m.name)) errs.push(fieldErr.notFound(p.child('name'), m.name));
    if (!m.mountPath) errs.push(fieldErr.required(p.child('mountPath')));
    if (mountPaths.has(m.mountPath)) errs.push(fieldErr.invalid(p.child('mountPath'), m.mountPath, 'must be unique'));
    mountPaths.add(m.mountPath);
    if (devices.has(m.name)) errs.push(fieldErr.invalid(p.child('name'), m.name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(m.mountPath)) errs.push(fieldErr.invalid(p.child('mountPath'), m.mountPath, 'must not already exist as a path in volumeDevices'));
    // Kubernetes reports sub-path errors on the list's path, without the index.
    if (m.subPath) errs.push(...validateLocalDescendingPath(m.subPath, path.child('subPath')));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(fieldErr.invalid(p.child('subPathExpr'), m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(m.subPathExpr, path.child('subPathExpr')));
    }
    if (m.mountPropagation !== undefined) {
      const mp = path.child('mountPropagation');
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) errs.push(fieldErr.notSupported(mp, m.mountPropagation, MOUNT_PROPAGATIONS));
      else if (m.mountPropagation === 'Bidirectional' && !c.securityContext?.privileged) {
        errs.push(fieldErr.forbidden(mp, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
  });
  return errs;
}

function validateDevices(c: Container, volumes: ReadonlyMap<string, Volume>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.name, m.mountPath]));
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  (c.volumeDevices ?? []).forEach((d: VolumeDevice, i) => {
    const p = path.index(i);
    const vol = volumes.get(d.name);
    if (!d.name) errs.push(fieldErr.required(p.child('name')));
    if (names.has(d.name)) errs.push(fieldErr.invalid(p.child('name'), d.name, 'must be unique'));
    if (vol && !vol.persistentVolumeClaim && !vol.ephemeral) {
      errs.push(fieldErr.invalid(p.child('name'), d.name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!vol) errs.push(fieldErr.notFound(p.child('name'), d.name));
    if (!d.devicePath) errs.push(fieldErr.required(p.child('devicePath')));
    if (paths.has(d.devicePath)) errs.push(fieldErr.invalid(p.child('devicePath'), d.devicePath, 'must be unique'));
    if (d.devicePath && validatePathNoBacksteps(d.devicePath, p).length) errs.push(fieldErr.invalid(p.child('devicePath'), d.devicePath, "can not contain backsteps ('..')"));
    else paths.add(d.devicePath);
    if (mounts.has(d.name)) errs.push(fieldErr.invalid(p.child('name'), d.name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(d.devicePath)) errs.push(fieldErr.invalid(p.child('devicePath'), d.devicePath, 'must not already exist as a path in volumeMounts'));
    if (d.name) names.add(d.name);
  });
  return errs;
}

/** What every container of any list must satisfy; `names` collects names across the pod's lists. */
function validateContainerCommon(c: Container, p: FieldPath, volumes: ReadonlyMap<string, Volume>, names: Set<string>, apiNames: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = p.child('name');
  if (!c.name) errs.push(fieldErr.required(namePath));
  else errs.push(...validateDns1123Label(c.name, namePath));
  if (names.has(c.name)) errs.push(fieldErr.duplicate(namePath, c.name));
  else if (c.name) names.add(c.name);
  if (!c.image) errs.push(fieldErr.required(p.child('image')));
  const tmp = p.child('terminationMessagePolicy');
  if (!c.terminationMessagePolicy) errs.push(fieldErr.required(tmp, "must be 'File' or 'FallbackToLogsOnError'"));
  else if (c.terminationMessagePolicy !== 'File' && c.terminationMessagePolicy !== 'FallbackToLogsOnError') {
    errs.push(fieldErr.invalid(tmp, c.terminationMessagePolicy, "must be 'File' or 'FallbackToLogsOnError'"));
  }
  errs.push(
    ...validatePorts(c.ports, p.child('ports')),
    ...validateEnv(c.env, p.child('env')),
    ...validateEnvFrom(c.envFrom, p.child('envFrom')),
    ...validateMounts(c, volumes, p.child('volumeMounts')),
    ...validateDevices(c, volumes, p.child('volumeDevices')),
  );
  if (!c.imagePullPolicy) errs.push(fieldErr.required(p.child('imagePullPolicy')));
  else if (!PULL_POLICIES.includes(c.imagePullPolicy)) errs.push(fieldErr.notSupported(p.child('imagePullPolicy'), c.imagePullPolicy, PULL_POLICIES));
  errs.push(...validateResourceRequirements(c.resources, p.child('resources'), apiNames), ...validateContainerSecurityContext(c.securityContext, p.child('securityContext')));
  return errs;
}

export function validateContainers(
  containers: readonly Container[],
  initContainers: readonly Container[] | undefined,
  volumes: ReadonlyMap<string, Volume>,
  specPath: FieldPath,
  apiNames: ApiNames,
): FieldError[] {
  const errs: FieldError[] = [];
  const path = specPath.child('containers');
  const names = new Set<string>();
  if (containers.length === 0) {
    errs.push(fieldErr.required(path));
  }
  containers.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, p, volumes, names, apiNames));
    if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, p.child('lifecycle')));
    errs.push(...validateProbe(c.livenessProbe, p.child('livenessProbe')));
    if (c.readinessProbe?.terminationGracePeriodSeconds !== undefined) {
      errs.push(fieldErr.invalid(p.child('readinessProbe').child('terminationGracePeriodSeconds'), c.readinessProbe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    }
    errs.push(...validateProbe(c.readinessProbe, p.child('readinessProbe')));
    if (c.livenessProbe && c.livenessProbe.successThreshold !== 1) {
      errs.push(fieldErr.invalid(p.child('livenessProbe').child('successThreshold'), c.livenessProbe.successThreshold ?? 0, 'must be 1'));
    }
    errs.push(...validateProbe(c.startupProbe, p.child('startupProbe')));
    if (c.startupProbe && c.startupProbe.successThreshold !== 1) {
      errs.push(fieldErr.invalid(p.child('startupProbe').child('successThreshold'), c.startupProbe.successThreshold ?? 0, 'must be 1'));
    }
  });
  errs.push(...validateHostPortConflicts(containers, path));

  const initPath = specPath.child('initContainers');
  (initContainers ?? []).forEach((c, i) => {
    const p = initPath.index(i);
    errs.push(...validateContainerCommon(c, p, volumes, names, apiNames));
    // Init containers run to completion before the others start: hooks and probes mean nothing to them.
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      if (c[f]) errs.push(fieldErr.forbidden(p.child(f), 'may not be set for init containers'));
    }
  });
  return errs;
}

/** What an ephemeral container may set; the rest (ports, probes, lifecycle, resources) would make it part of the workload. */
const EPHEMERAL_ALLOWED = new Set([
  'name', 'image', 'command', 'args', 'workingDir', 'env', 'envFrom', 'volumeMounts', 'volumeDevices', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty', 'targetContainerName',
]);

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isZero);
  return false;
}

/** Kubernetes' validateEphemeralContainers: each as a container, unique names, a real target, only the allowed fields, no sub-paths. */
export function validateEphemeralContainers(
  ephemeral: readonly (Container & { targetContainerName?: string })[] | undefined,
  containers: readonly Container[],
  initContainers: readonly Container[] | undefined,
  volumes: ReadonlyMap<string, Volume>,
  specPath: FieldPath,
  apiNames: ApiNames,
): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...containers, ...(initContainers ?? [])].map((c) => c.name));
  const all = new Set(others);
  const path = specPath.child('ephemeralContainers');
  (ephemeral ?? []).forEach((ec, i) => {
    const p = path.index(i);
    // Duplicates are reported once, below, against every container of the pod.
    errs.push(...validateContainerCommon(ec, p, volumes, new Set<string>(), apiNames));
    if (all.has(ec.name)) errs.push(fieldErr.duplicate(p.child('name'), ec.name));
    else all.add(ec.name);
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) errs.push(fieldErr.notFound(p.child('targetContainerName'), ec.targetContainerName));
    for (const [k, v] of Object.entries(ec)) {
      if (!EPHEMERAL_ALLOWED.has(k) && !isZero(v)) errs.push(fieldErr.forbidden(p.child(k), 'cannot be set for an Ephemeral Container'));
    }
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      if (vm.subPath) errs.push(fieldErr.forbidden(p.child('volumeMounts').index(j).child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (vm.subPathExpr) errs.push(fieldErr.forbidden(p.child('volumeMounts').index(j).child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}
