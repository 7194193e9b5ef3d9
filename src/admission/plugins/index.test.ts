import { describe, expect, it } from 'vitest';
import { implementedPluginNames, ORDERED_PLUGINS, selectPlugins } from './index.js';

const names = (choice: Parameters<typeof selectPlugins>[0]) => selectPlugins(choice).map((p) => p.name);

describe('the ordered plugin list', () => {
  it("holds kube-apiserver 1.25's plugins once each, webhooks and quota at the end", () => {
    const all = ORDERED_PLUGINS.map((p) => p.name);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(34);
    expect(all.slice(-4)).toEqual(['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
    expect(ORDERED_PLUGINS.filter((p) => p.defaultOn).map((p) => p.name).sort()).toEqual(
      [
        'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'DefaultStorageClass', 'PersistentVolumeClaimResize', 'DefaultTolerationSeconds',
        'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'StorageObjectInUseProtection', 'Priority', 'TaintNodesByCondition',
        'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'PodSecurity',
      ].sort(),
    );
  });

  it('runs the default-on plugins it implements, in order', () => {
    expect(names({})).toEqual([
      'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass',
      'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning',
      'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota',
    ]);
  });

  it('enables and disables in its own order, whatever order the flags give', () => {
    const chosen = names({ enable: ['SecurityContextDeny'], disable: ['DefaultIngressClass', 'Priority', 'ResourceQuota'] });
    expect(chosen.slice(0, 3)).toEqual(['NamespaceLifecycle', 'SecurityContextDeny', 'LimitRanger']);
    expect(chosen).not.toContain('Priority');
    expect(chosen).not.toContain('DefaultIngressClass');
  });

  it.each([
    [{ enable: ['Nope'] }, `enable-admission-plugins plugin "Nope" is unknown; the plugins this server implements are: ${implementedPluginNames().join(', ')}`],
    [{ disable: ['namespacelifecycle'] }, 'disable-admission-plugins plugin "namespacelifecycle" is unknown'],
    [{ enable: ['AlwaysPullImages'] }, 'enable-admission-plugins plugin "AlwaysPullImages" is a Kubernetes 1.25 admission plugin this server does not implement'],
    [{ enable: ['ImagePolicyWebhook'] }, 'does not implement'],
    [{ enable: ['LimitRanger', 'SecurityContextDeny'], disable: ['SecurityContextDeny', 'LimitRanger'] }, '[LimitRanger SecurityContextDeny] in enable-admission-plugins and disable-admission-plugins overlapped'],
  ])('refuses %j', (choice, message) => {
    expect(() => selectPlugins(choice)).toThrow(message);
  });
});
