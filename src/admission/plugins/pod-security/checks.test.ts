import { describe, expect, it } from 'vitest';
import { evaluatePod, forbiddenDetail, type Level, type PodSpecInfo } from './checks.js';

const keys = { seccompPod: 'seccomp.security.alpha.kubernetes.io/pod', seccompContainerPrefix: 'container.seccomp.security.alpha.kubernetes.io/', appArmorContainerPrefix: 'container.apparmor.security.beta.kubernetes.io/' };
const restrictedOk = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
const good: PodSpecInfo = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'a', securityContext: restrictedOk }] };
const withContainer = (sc: Record<string, unknown>, extra: Partial<PodSpecInfo> = {}): PodSpecInfo => ({ ...good, containers: [{ name: 'a', securityContext: { ...restrictedOk, ...sc } }], ...extra });
const detail = (level: Level, spec: PodSpecInfo, minor = 25, annotations: Record<string, string> = {}) => forbiddenDetail(evaluatePod(level, minor, { annotations }, spec, keys));

describe('Pod Security Standards checks', () => {
  it.each<[string, Level, PodSpecInfo, string]>([
    ['a compliant pod', 'restricted', good, ''],
    ['host namespaces', 'baseline', { ...good, hostNetwork: true, hostIPC: true }, 'host namespaces (hostNetwork=true, hostIPC=true)'],
    ['privileged', 'baseline', withContainer({ privileged: true }), 'privileged (container "a" must not set securityContext.privileged=true)'],
    ['non-default capabilities', 'baseline', withContainer({ capabilities: { add: ['SYS_ADMIN', 'NET_ADMIN', 'CHOWN'] } }), 'non-default capabilities (container "a" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)'],
    ['hostPath volumes', 'baseline', { ...good, volumes: [{ name: 'x', hostPath: { path: '/' } }, { name: 'y', hostPath: { path: '/' } }] }, 'hostPath volumes (volumes "x", "y")'],
    ['hostPorts', 'baseline', { containers: [{ name: 'a', ports: [{ hostPort: 80 }, { hostPort: 443 }] }, { name: 'b', ports: [{ hostPort: 80 }] }] }, 'hostPort (containers "a", "b" use hostPorts 443, 80)'],
    ['seLinuxOptions', 'baseline', { ...good, securityContext: { seLinuxOptions: { type: 'spc_t', user: 'root' } } }, 'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)'],
    ['procMount', 'baseline', withContainer({ procMount: 'Unmasked' }), 'procMount (container "a" must not set securityContext.procMount to "Unmasked")'],
    ['seccomp Unconfined', 'baseline', withContainer({ seccompProfile: { type: 'Unconfined' } }), 'seccompProfile (container "a" must not set securityContext.seccompProfile.type to "Unconfined")'],
    ['sysctls', 'baseline', { ...good, securityContext: { sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_syncookies' }] } }, 'forbidden sysctls (kernel.msgmax)'],
    ['hostProcess', 'baseline', withContainer({ windowsOptions: { hostProcess: true } }), 'hostProcess (container "a" must not set securityContext.windowsOptions.hostProcess=true)'],
    ['restricted volume types', 'restricted', { ...good, volumes: [{ name: 'n', nfs: {} }, { name: 'e', emptyDir: {} }] }, 'restricted volume types (volume "n" uses restricted volume type "nfs")'],
    ['runAsNonRoot=false', 'restricted', withContainer({ runAsNonRoot: false }), 'runAsNonRoot != true (container "a" must not set securityContext.runAsNonRoot=false)'],
    ['runAsUser=0', 'restricted', withContainer({ runAsUser: 0 }), 'runAsUser=0 (container "a" must not set runAsUser=0)'],
    ['capabilities added in restricted', 'restricted', withContainer({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] } }), 'unrestricted capabilities (container "a" must not include "NET_RAW" in securityContext.capabilities.add)'],
    ['a Windows pod skips the Linux-only restricted checks', 'restricted', { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'a' }] }, ''],
  ])('%s', (_what, level, spec, want) => {
    expect(detail(level, spec)).toBe(want);
  });

  it('a baseline pod passes baseline', () => {
    expect(detail('baseline', { containers: [{ name: 'a' }] })).toBe('');
  });

  it('runs the checks of the version asked for', () => {
    const root = withContainer({ runAsUser: 0 });
    expect(detail('restricted', root, 22)).toBe('');
    expect(detail('restricted', root, 23)).toBe('runAsUser=0 (container "a" must not set runAsUser=0)');
    // Before 1.19 seccomp was read from annotations.
    expect(detail('baseline', { containers: [{ name: 'a' }] }, 18, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' })).toBe(
      'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    // Versions newer than the server's are its latest.
    expect(detail('restricted', root, 40)).toBe(detail('restricted', root, 25));
    expect(detail('baseline', { containers: [{ name: 'a' }] }, 25, { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' })).toBe(
      'forbidden AppArmor profile (container.apparmor.security.beta.kubernetes.io/a="unconfined")',
    );
  });
});
