import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { storageObjectInUseProtection } from './index.js';

describe('StorageObjectInUseProtection', () => {
  const run = (domain: string, resource: string, finalizers?: string[], operation: 'CREATE' | 'UPDATE' = 'CREATE') => {
    const o = obj('x', {}, finalizers ? { finalizers } : {});
    void storageObjectInUseProtection(createApiNames(domain)).admit?.(attrs({ resource, object: o, operation }));
    return o.metadata.finalizers;
  };
  it.each([
    ['orch.io', 'persistentvolumeclaims', undefined, ['orch.io/pvc-protection']],
    ['k8s.io', 'persistentvolumeclaims', ['a'], ['a', 'kubernetes.io/pvc-protection']],
    ['orch.io', 'persistentvolumes', undefined, ['orch.io/pv-protection']],
    ['k8s.io', 'persistentvolumes', ['kubernetes.io/pv-protection'], ['kubernetes.io/pv-protection']],
    ['orch.io', 'configmaps', undefined, undefined],
  ])('%s %s %j', (domain, resource, finalizers, expected) => {
    expect(run(domain, resource, finalizers)).toEqual(expected);
  });
  it('leaves updates alone', () => {
    expect(run('orch.io', 'persistentvolumeclaims', undefined, 'UPDATE')).toBeUndefined();
  });
});
