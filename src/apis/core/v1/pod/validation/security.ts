/** Security contexts of containers and pods: user and group ids, seccomp, proc mount, sysctls. */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import type { PodSpec } from '../pod-spec.js';
import type { PodSecurityContext, SeccompProfile, SecurityContext } from '../security-context.js';
import { inclusiveRange } from '../../types/index.js';
import { INT32_MAX, validateLocalDescendingPath } from './common.js';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];
const FS_GROUP_CHANGE_POLICIES = ['OnRootMismatch', 'Always'];
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_PATTERN = `(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}`;
const SYSCTL_RE = new RegExp(`^${SYSCTL_PATTERN}$`);
const SYSCTL_MAX = 253;

function validateId(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && (value < 0 || value > INT32_MAX) ? [fieldErr.invalid(path, value, inclusiveRange(0, INT32_MAX))] : [];
}

function validateSeccomp(sp: SeccompProfile | undefined, path: FieldPath): FieldError[] {
  if (!sp) return [];
  const errs: FieldError[] = [];
  if (!sp.type) errs.push(fieldErr.required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(sp.type)) errs.push(fieldErr.notSupported(path.child('type'), sp.type, SECCOMP_TYPES));
  if (sp.type === 'Localhost') {
    if (sp.localhostProfile === undefined) errs.push(fieldErr.required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(sp.localhostProfile, path.child('localhostProfile')));
  } else if (sp.localhostProfile !== undefined) {
    errs.push(fieldErr.invalid(path.child('localhostProfile'), sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

export function validateContainerSecurityContext(sc: SecurityContext | undefined, path: FieldPath): FieldError[] {
  if (!sc) return [];
  const errs = [...validateId(sc.runAsUser, path.child('runAsUser')), ...validateId(sc.runAsGroup, path.child('runAsGroup'))];
  if (sc.procMount !== undefined && !PROC_MOUNT_TYPES.includes(sc.procMount)) errs.push(fieldErr.notSupported(path.child('procMount'), sc.procMount, PROC_MOUNT_TYPES));
  errs.push(...validateSeccomp(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged) errs.push(fieldErr.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    if ((sc.capabilities?.add ?? []).includes('CAP_SYS_ADMIN')) {
      errs.push(fieldErr.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return errs;
}

/** The pod-level context; `specPath` is `spec`, for the host-network rule that concerns containers. */
export function validatePodSecurityContext(sc: PodSecurityContext | undefined, spec: PodSpec, specPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const path = specPath.child('securityContext');
  if (sc) {
    errs.push(...validateId(sc.fsGroup, path.child('fsGroup')), ...validateId(sc.runAsUser, path.child('runAsUser')), ...validateId(sc.runAsGroup, path.child('runAsGroup')));
    (sc.supplementalGroups ?? []).forEach((g, i) => errs.push(...validateId(g, path.child('supplementalGroups').index(i))));
    const seen = new Set<string>();
    (sc.sysctls ?? []).forEach((s, i) => {
      const p = path.child('sysctls').index(i).child('name');
      if (!s.name) errs.push(fieldErr.required(p));
      else if (s.name.length > SYSCTL_MAX || !SYSCTL_RE.test(s.name)) errs.push(fieldErr.invalid(p, s.name, `must have at most ${SYSCTL_MAX} characters and match regex ${SYSCTL_PATTERN}`));
      else if (seen.has(s.name)) errs.push(fieldErr.duplicate(p, s.name));
      seen.add(s.name);
    });
    if (sc.fsGroupChangePolicy !== undefined && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
      errs.push(fieldErr.notSupported(path.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
    }
    errs.push(...validateSeccomp(sc.seccompProfile, path.child('seccompProfile')));
  }
  if (spec.shareProcessNamespace && spec.hostPID) {
    errs.push(fieldErr.invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (spec.hostNetwork) {
    spec.containers.forEach((c, i) => {
      (c.ports ?? []).forEach((port, j) => {
        if (port.hostPort !== port.containerPort) {
          errs.push(
            fieldErr.invalid(specPath.child('containers').index(i).child('ports').index(j).child('hostPort'), port.hostPort ?? 0, 'must match `containerPort` when `hostNetwork` is true'),
          );
        }
      });
    });
  }
  return errs;
}
