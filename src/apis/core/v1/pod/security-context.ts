/** Security settings of a pod and of each container (users, groups, capabilities, seccomp, SELinux). */
import { t, type Infer } from '../../../../schema/index.js';

export const Capabilities = t.struct('core.v1.Capabilities', {
  add: t.field(1, t.list(t.string())),
  drop: t.field(2, t.list(t.string())),
});
export type Capabilities = Infer<typeof Capabilities>;

export const SELinuxOptions = t.struct('core.v1.SELinuxOptions', {
  user: t.field(1, t.string()),
  role: t.field(2, t.string()),
  type: t.field(3, t.string()),
  level: t.field(4, t.string()),
});
export type SELinuxOptions = Infer<typeof SELinuxOptions>;

export const WindowsSecurityContextOptions = t.struct('core.v1.WindowsSecurityContextOptions', {
  gmsaCredentialSpecName: t.field(1, t.string(), { pointer: true }),
  gmsaCredentialSpec: t.field(2, t.string(), { pointer: true }),
  runAsUserName: t.field(3, t.string(), { pointer: true }),
  hostProcess: t.field(4, t.bool(), { pointer: true }),
});
export type WindowsSecurityContextOptions = Infer<typeof WindowsSecurityContextOptions>;

export const SeccompProfile = t.struct('core.v1.SeccompProfile', {
  type: t.required(1, t.string(), { always: true }),
  localhostProfile: t.field(2, t.string(), { pointer: true }),
});
export type SeccompProfile = Infer<typeof SeccompProfile>;

export const SecurityContext = t.struct('core.v1.SecurityContext', {
  capabilities: t.field(1, Capabilities, { pointer: true }),
  privileged: t.field(2, t.bool(), { pointer: true }),
  seLinuxOptions: t.field(3, SELinuxOptions, { pointer: true }),
  windowsOptions: t.field(10, WindowsSecurityContextOptions, { pointer: true }),
  runAsUser: t.field(4, t.int64(), { pointer: true }),
  runAsGroup: t.field(8, t.int64(), { pointer: true }),
  runAsNonRoot: t.field(5, t.bool(), { pointer: true }),
  readOnlyRootFilesystem: t.field(6, t.bool(), { pointer: true }),
  allowPrivilegeEscalation: t.field(7, t.bool(), { pointer: true }),
  procMount: t.field(9, t.string(), { pointer: true }),
  seccompProfile: t.field(11, SeccompProfile, { pointer: true }),
});
export type SecurityContext = Infer<typeof SecurityContext>;

export const Sysctl = t.struct('core.v1.Sysctl', {
  name: t.required(1, t.string(), { always: true }),
  value: t.required(2, t.string(), { always: true }),
});
export type Sysctl = Infer<typeof Sysctl>;

export const PodSecurityContext = t.struct('core.v1.PodSecurityContext', {
  seLinuxOptions: t.field(1, SELinuxOptions, { pointer: true }),
  windowsOptions: t.field(8, WindowsSecurityContextOptions, { pointer: true }),
  runAsUser: t.field(2, t.int64(), { pointer: true }),
  runAsGroup: t.field(6, t.int64(), { pointer: true }),
  runAsNonRoot: t.field(3, t.bool(), { pointer: true }),
  supplementalGroups: t.field(4, t.list(t.int64())),
  fsGroup: t.field(5, t.int64(), { pointer: true }),
  sysctls: t.field(7, t.list(Sysctl)),
  fsGroupChangePolicy: t.field(9, t.string(), { pointer: true }),
  seccompProfile: t.field(10, SeccompProfile, { pointer: true }),
});
export type PodSecurityContext = Infer<typeof PodSecurityContext>;

