import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../machinery/api-names.js';
import { isStatusError } from '../../../machinery/errors.js';
import { attrs, obj } from '../testing/attrs.js';
import { deniedSecurityField, securityContextDeny, type PodSecurityInfo } from './index.js';

describe('SecurityContextDeny', () => {
  it.each([
    [{ securityContext: { supplementalGroups: [] } }, 'pod.Spec.SecurityContext.SupplementalGroups is forbidden'],
    [{ securityContext: { seLinuxOptions: { level: 's0' } } }, 'pod.Spec.SecurityContext.SELinuxOptions is forbidden'],
    [{ securityContext: { runAsUser: 0 } }, 'pod.Spec.SecurityContext.RunAsUser is forbidden'],
    [{ securityContext: { fsGroup: 2000 } }, 'pod.Spec.SecurityContext.FSGroup is forbidden'],
    [{ securityContext: { runAsNonRoot: true }, containers: [{ securityContext: { runAsUser: 1 } }] }, 'SecurityContext.RunAsUser is forbidden'],
    [{ initContainers: [{ securityContext: { seLinuxOptions: {} } }] }, 'SecurityContext.SELinuxOptions is forbidden'],
    [{ containers: [{ securityContext: { privileged: false, runAsGroup: 3 } }] }, undefined],
    [{}, undefined],
  ])('%j → %s', (spec, expected) => {
    expect(deniedSecurityField({ spec } as PodSecurityInfo)).toBe(expected);
  });

  it('refuses with a 403 naming the pod, on create and update, and ignores subresources and other kinds', () => {
    const plugin = securityContextDeny(createApiNames());
    const pod = obj('p', { spec: { securityContext: { runAsUser: 0 } } });
    let err: unknown;
    try {
      plugin.validate?.(attrs({ resource: 'pods', object: pod }));
    } catch (e) {
      err = e;
    }
    expect(isStatusError(err, 'Forbidden')).toBe(true);
    expect((err as Error).message).toBe('pods "p" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden');
    expect(() => plugin.validate?.(attrs({ resource: 'pods', operation: 'UPDATE', object: pod }))).toThrow();
    expect(() => plugin.validate?.(attrs({ resource: 'pods', subresource: 'status', operation: 'UPDATE', object: pod }))).not.toThrow();
    expect(() => plugin.validate?.(attrs({ resource: 'podtemplates', object: pod }))).not.toThrow();
  });
});
