/**
 * The Pod Security Standards' checks as Kubernetes 1.25 runs them: each check has a level
 * (baseline or restricted), an id, and one implementation per policy version it changed in. A
 * result is allowed, or a reason with a detail in Kubernetes' exact words. Pure.
 */

export type Level = 'privileged' | 'baseline' | 'restricted';

export interface CheckResult {
  readonly reason: string;
  readonly detail: string;
}

interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type?: string };
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  windowsOptions?: { hostProcess?: boolean };
}
interface Container {
  name: string;
  ports?: { hostPort?: number }[];
  securityContext?: SecurityContext;
}
/** What the checks read of a pod's spec. */
export interface PodSpecInfo {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  os?: { name?: string };
  securityContext?: SecurityContext & { sysctls?: { name: string }[] };
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: ({ name: string } & Record<string, unknown>)[];
}
export interface PodMetaInfo {
  annotations?: Record<string, string>;
}

/** Annotation keys the checks of old versions read, under the domain's label domain. */
export interface CheckKeys {
  readonly seccompPod: string;
  readonly seccompContainerPrefix: string;
  readonly appArmorContainerPrefix: string;
}

type CheckFn = (meta: PodMetaInfo, spec: PodSpecInfo, keys: CheckKeys) => CheckResult | undefined;

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** By the minor version (of 1.x) each implementation starts at, increasing. */
  readonly versions: readonly { readonly minor: number; readonly fn: CheckFn; readonly overrides?: readonly string[] }[];
}

const q = (items: readonly string[]): string => items.map((i) => `"${i}"`).join(', ');
const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const containersOf = (spec: PodSpecInfo): Container[] => [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
const sortedSet = (s: Set<string>): string[] => [...s].sort();
const named = (names: string[]): string => `${plural('container', 'containers', names.length)} ${q(names)}`;
const isWindows = (spec: PodSpecInfo): boolean => spec.os?.name === 'windows';
const onlyLinux = (fn: CheckFn): CheckFn => (meta, spec, keys) => (isWindows(spec) ? undefined : fn(meta, spec, keys));

const hostNamespaces: CheckFn = (_m, spec) => {
  const set = [spec.hostNetwork && 'hostNetwork=true', spec.hostPID && 'hostPID=true', spec.hostIPC && 'hostIPC=true'].filter((x): x is string => !!x);
  return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
};

const privileged: CheckFn = (_m, spec) => {
  const bad = containersOf(spec).filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
  return bad.length ? { reason: 'privileged', detail: `${named(bad)} must not set securityContext.privileged=true` } : undefined;
};

const DEFAULT_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const capabilitiesBaseline: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const c of containersOf(spec)) {
    const added = (c.securityContext?.capabilities?.add ?? []).filter((x) => !DEFAULT_CAPABILITIES.has(x));
    if (added.length) bad.push(c.name);
    for (const x of added) caps.add(x);
  }
  return bad.length ? { reason: 'non-default capabilities', detail: `${named(bad)} must not include ${q(sortedSet(caps))} in securityContext.capabilities.add` } : undefined;
};

const hostPathVolumes: CheckFn = (_m, spec) => {
  const bad = (spec.volumes ?? []).filter((v) => v.hostPath != null).map((v) => v.name);
  return bad.length ? { reason: 'hostPath volumes', detail: `${plural('volume', 'volumes', bad.length)} ${q(bad)}` } : undefined;
};

const hostPorts: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const c of containersOf(spec)) {
    const used = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0);
    if (used.length) bad.push(c.name);
    for (const p of used) ports.add(String(p.hostPort));
  }
  if (!bad.length) return undefined;
  return { reason: 'hostPort', detail: `${named(bad)} ${plural('uses', 'use', bad.length)} ${plural('hostPort', 'hostPorts', ports.size)} ${sortedSet(ports).join(', ')}` };
};

/** 1.25's AppArmor check reads the beta annotations only. */
const appArmor: CheckFn = (meta, _s, keys) => {
  const bad = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(keys.appArmorContainerPrefix) && v !== 'runtime/default' && !v.startsWith('localhost/'))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  return bad.length ? { reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), detail: bad.join(', ') } : undefined;
};

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const seLinuxOptions: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  const types = new Set<string>();
  let user = false;
  let role = false;
  const valid = (o: NonNullable<SecurityContext['seLinuxOptions']>): boolean => {
    const badType = !SELINUX_TYPES.has(o.type ?? '');
    if (badType) types.add(o.type ?? '');
    if (o.user) user = true;
    if (o.role) role = true;
    return !badType && !o.user && !o.role;
  };
  if (spec.securityContext?.seLinuxOptions && !valid(spec.securityContext.seLinuxOptions)) setters.push('pod');
  const bad = containersOf(spec).filter((c) => c.securityContext?.seLinuxOptions && !valid(c.securityContext.seLinuxOptions)).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  if (!setters.length) return undefined;
  const data = [...(types.size ? [`${plural('type', 'types', types.size)} ${q(sortedSet(types))}`] : []), ...(user ? ['user may not be set'] : []), ...(role ? ['role may not be set'] : [])];
  return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
};

const procMount: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const c of containersOf(spec)) {
    const p = c.securityContext?.procMount;
    if (p !== undefined && p !== 'Default') {
      bad.push(c.name);
      types.add(p);
    }
  }
  return bad.length ? { reason: 'procMount', detail: `${named(bad)} must not set securityContext.procMount to ${q(sortedSet(types))}` } : undefined;
};

const validSeccomp = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
const validSeccompAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

const seccompBaselineAnnotations: CheckFn = (meta, spec, keys) => {
  const bad = new Set<string>();
  const a = meta.annotations ?? {};
  const podValue = a[keys.seccompPod];
  if (podValue !== undefined && !validSeccompAnnotation(podValue)) bad.add(`${keys.seccompPod}=${JSON.stringify(podValue)}`);
  for (const c of containersOf(spec)) {
    const k = keys.seccompContainerPrefix + c.name;
    const v = a[k];
    if (v !== undefined && !validSeccompAnnotation(v)) bad.add(`${k}=${JSON.stringify(v)}`);
  }
  return bad.size ? { reason: 'seccompProfile', detail: `forbidden ${plural('annotation', 'annotations', bad.size)} ${sortedSet(bad).join(', ')}` } : undefined;
};

/** The seccomp check of fields; `restricted` also requires a profile to be set. */
const seccompFields =
  (restricted: boolean): CheckFn =>
  (_m, spec) => {
    const setters: string[] = [];
    const values = new Set<string>();
    let podSet = false;
    const podProfile = spec.securityContext?.seccompProfile;
    if (podProfile) {
      if (!validSeccomp(podProfile.type)) {
        setters.push('pod');
        values.add(podProfile.type ?? '');
      } else podSet = true;
    }
    const explicit: string[] = [];
    const implicit: string[] = [];
    for (const c of containersOf(spec)) {
      const p = c.securityContext?.seccompProfile;
      if (p) {
        if (!validSeccomp(p.type)) {
          explicit.push(c.name);
          values.add(p.type ?? '');
        }
      } else if (!podSet) implicit.push(c.name);
    }
    if (explicit.length) setters.push(named(explicit));
    if (setters.length) return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${q(sortedSet(values))}` };
    if (restricted && implicit.length) return { reason: 'seccompProfile', detail: `pod or ${named(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
    return undefined;
  };

const SYSCTLS = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']);
const sysctls: CheckFn = (_m, spec) => {
  const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name).filter((n) => !SYSCTLS.has(n));
  return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
};

const windowsHostProcess: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad = containersOf(spec).filter((c) => c.securityContext?.windowsOptions?.hostProcess === true).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  return setters.length ? { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
};

const allowPrivilegeEscalation: CheckFn = (_m, spec) => {
  const bad = containersOf(spec).filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
  return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${named(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
};

const capabilitiesRestricted: CheckFn = (_m, spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const caps = new Set<string>();
  for (const c of containersOf(spec)) {
    const cap = c.securityContext?.capabilities;
    if (!cap) {
      missingDrop.push(c.name);
      continue;
    }
    if (!(cap.drop ?? []).includes('ALL')) missingDrop.push(c.name);
    const added = (cap.add ?? []).filter((x) => x !== 'NET_BIND_SERVICE');
    if (added.length) adding.push(c.name);
    for (const x of added) caps.add(x);
  }
  const details = [
    ...(missingDrop.length ? [`${named(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`] : []),
    ...(adding.length ? [`${named(adding)} must not include ${q(sortedSet(caps))} in securityContext.capabilities.add`] : []),
  ];
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
const KNOWN_RESTRICTED_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc',
  'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];
const restrictedVolumes: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of spec.volumes ?? []) {
    if (ALLOWED_VOLUME_SOURCES.some((s) => v[s] != null)) continue;
    bad.push(v.name);
    types.add(KNOWN_RESTRICTED_SOURCES.find((s) => v[s] != null) ?? 'unknown');
  }
  if (!bad.length) return undefined;
  return {
    reason: 'restricted volume types',
    detail: `${plural('volume', 'volumes', bad.length)} ${q(bad)} ${plural('uses', 'use', bad.length)} ${plural('restricted volume type', 'restricted volume types', types.size)} ${q(sortedSet(types))}`,
  };
};

const runAsNonRoot: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const pod = spec.securityContext?.runAsNonRoot;
  if (pod === false) setters.push('pod');
  else if (pod === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(c.name);
    else if (v === undefined && !podNonRoot) implicit.push(c.name);
  }
  if (explicit.length) setters.push(named(explicit));
  if (setters.length) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${named(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckFn = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad = containersOf(spec).filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

/** Every check, in Kubernetes' order: baseline ids sorted, then restricted ids sorted. */
export const CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minor: 0, fn: appArmor }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minor: 0, fn: capabilitiesBaseline }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minor: 0, fn: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minor: 0, fn: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minor: 0, fn: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minor: 0, fn: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minor: 0, fn: procMount }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minor: 0, fn: seLinuxOptions }] },
  { id: 'seccompProfile_baseline', level: 'baseline', versions: [{ minor: 0, fn: seccompBaselineAnnotations }, { minor: 19, fn: seccompFields(false) }] },
  { id: 'sysctls', level: 'baseline', versions: [{ minor: 0, fn: sysctls }] },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minor: 0, fn: windowsHostProcess }] },
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [{ minor: 8, fn: allowPrivilegeEscalation }, { minor: 25, fn: onlyLinux(allowPrivilegeEscalation) }] },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [{ minor: 22, fn: capabilitiesRestricted, overrides: ['capabilities_baseline'] }, { minor: 25, fn: onlyLinux(capabilitiesRestricted), overrides: ['capabilities_baseline'] }],
  },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minor: 0, fn: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minor: 0, fn: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minor: 23, fn: runAsUser }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [{ minor: 19, fn: seccompFields(true), overrides: ['seccompProfile_baseline'] }, { minor: 25, fn: onlyLinux(seccompFields(true)), overrides: ['seccompProfile_baseline'] }],
  },
];

/** The newest policy version this server knows: `latest` and anything newer mean 1.25. */
export const LATEST_MINOR = 25;

/** Every failing check of `level` at policy version 1.`minor`, in order. */
export function evaluatePod(level: Level, minor: number, meta: PodMetaInfo, spec: PodSpecInfo, keys: CheckKeys): CheckResult[] {
  if (level === 'privileged') return [];
  const v = Math.min(minor, LATEST_MINOR);
  const active = CHECKS.map((c) => ({ check: c, impl: [...c.versions].reverse().find((x) => x.minor <= v) })).filter(
    (x): x is { check: Check; impl: NonNullable<typeof x.impl> } => !!x.impl && (x.check.level === 'baseline' || level === 'restricted'),
  );
  const overridden = new Set(level === 'restricted' ? active.flatMap((x) => x.impl.overrides ?? []) : []);
  const results: CheckResult[] = [];
  for (const { check, impl } of active) {
    if (overridden.has(check.id)) continue;
    const r = impl.fn(meta, spec, keys);
    if (r) results.push(r);
  }
  return results;
}

/** `reason (detail), reason (detail)`: Kubernetes' aggregate of failing checks. */
export function forbiddenDetail(results: readonly CheckResult[]): string {
  return results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
}

export const forbiddenReasons = (results: readonly CheckResult[]): string => results.map((r) => r.reason).join(', ');
