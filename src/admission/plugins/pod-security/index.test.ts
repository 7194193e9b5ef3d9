import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { podSecurity, type NamespaceInfo, type PodInfo } from './index.js';
import { policyFromLabels, policyLabelKeys, DEFAULT_POD_SECURITY_CONFIG } from './policy.js';

const names = createApiNames('k8s.io');
const ns = (name: string, labels: Record<string, string>): NamespaceInfo => ({ metadata: { name, labels } });
const privilegedPod = (runtimeClassName?: string) => obj('p', { spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }], ...(runtimeClassName ? { runtimeClassName } : {}) } });
const config = (exemptions: Record<string, string[]>) => ({
  value: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'privileged' }, exemptions },
  source: 'test',
  baseDir: '.',
});

describe('PodSecurity plugin', () => {
  const namespaces = staticLister([ns('ns', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/audit': 'restricted' })]);
  const pods = staticLister<PodInfo>([]);

  it('records the enforced policy and audit violations in the audit annotations', async () => {
    const plugin = podSecurity(names, namespaces, pods, undefined);
    const a = attrs({ resource: 'pods', object: obj('p', { spec: { containers: [{ name: 'c', image: 'i' }] } }), audit: { annotations: {} }, warnings: [] });
    await plugin.validate?.(a);
    expect(a.audit?.annotations).toEqual({
      'pod-security.kubernetes.io/enforce-policy': 'baseline:latest',
      'pod-security.kubernetes.io/audit-violations':
        'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    });
    // warn defaults to the stricter enforce level, which the pod meets: no warning.
    expect(a.warnings).toEqual([]);
  });

  it.each([
    ['a user', { usernames: ['admin'] }, undefined, 'user'],
    ['a runtime class', { runtimeClasses: ['kata'] }, 'kata', 'runtimeClass'],
    ['a namespace', { namespaces: ['ns'] }, undefined, 'namespace'],
  ])('lets %s through when exempt', async (_what, exemptions, runtimeClass, reason) => {
    const plugin = podSecurity(names, namespaces, pods, config(exemptions));
    const a = attrs({ resource: 'pods', object: privilegedPod(runtimeClass), user: { username: 'admin', groups: [] }, audit: { annotations: {} } });
    await plugin.validate?.(a);
    expect(a.audit?.annotations['pod-security.kubernetes.io/exempt']).toBe(reason);
    const other = podSecurity(names, namespaces, pods, undefined);
    await expect(Promise.resolve().then(() => other.validate?.(attrs({ resource: 'pods', object: privilegedPod(runtimeClass), user: { username: 'admin', groups: [] } })))).rejects.toThrow(
      'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  it('refuses a configuration it cannot read', () => {
    expect(() => podSecurity(names, namespaces, pods, { value: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { enforce: 'strict' } }, source: 'f.yaml', baseDir: '.' })).toThrow(
      'PodSecurity configuration in f.yaml: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  });

  it.each([
    [{}, 'privileged:latest', 'privileged:latest'],
    [{ enforce: 'restricted' }, 'restricted:latest', 'restricted:latest'],
    [{ enforce: 'baseline', 'enforce-version': 'v1.22' }, 'baseline:v1.22', 'baseline:v1.22'],
    [{ enforce: 'restricted', warn: 'baseline' }, 'restricted:latest', 'baseline:latest'],
    [{ enforce: 'nonsense' }, 'restricted:latest', 'privileged:latest'],
    [{ warn: 'nonsense' }, 'privileged:latest', 'privileged:latest'],
  ])('labels %j: enforce %s, warn %s', (labels, enforce, warn) => {
    const withPrefix = Object.fromEntries(Object.entries(labels).map(([k, v]) => [`pod-security.kubernetes.io/${k}`, v]));
    const { policy } = policyFromLabels(withPrefix, DEFAULT_POD_SECURITY_CONFIG.defaults, policyLabelKeys(names));
    const text = (lv: { level: string; version: number | 'latest' }) => `${lv.level}:${lv.version === 'latest' ? 'latest' : `v1.${lv.version}`}`;
    expect([text(policy.enforce), text(policy.warn)]).toEqual([enforce, warn]);
  });
});
