import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { persistentVolumeClaimResize } from './index.js';

const classes = staticLister([
  { metadata: { name: 'grow' }, allowVolumeExpansion: true },
  { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
  { metadata: { name: 'silent' } },
]);

const claim = (size: string, storageClassName: string | undefined, phase = 'Bound') =>
  obj('c', { spec: { ...(storageClassName !== undefined ? { storageClassName } : {}), resources: { requests: { storage: size } } }, status: { phase } });

describe('PersistentVolumeClaimResize', () => {
  const run = (next: ReturnType<typeof claim>, old: ReturnType<typeof claim>) =>
    persistentVolumeClaimResize(createApiNames(), classes).validate?.(attrs({ resource: 'persistentvolumeclaims', operation: 'UPDATE', object: next, oldObject: old }));
  const NOT_EXPANDABLE = 'persistentvolumeclaims "c" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

  it.each([
    ['grows with an expandable class', claim('2Gi', 'grow'), claim('1Gi', 'grow'), undefined],
    ['stays the same size (1024Mi is 1Gi)', claim('1024Mi', 'fixed'), claim('1Gi', 'fixed'), undefined],
    ['shrinks (left to validation)', claim('1Gi', 'fixed'), claim('2Gi', 'fixed'), undefined],
    ['grows while pending', claim('2Gi', 'grow'), claim('1Gi', 'grow', 'Pending'), 'persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded'],
    ['grows with a class that does not allow it', claim('2Gi', 'fixed'), claim('1Gi', 'fixed'), NOT_EXPANDABLE],
    ['grows with a class that does not say', claim('2Gi', 'silent'), claim('1Gi', 'silent'), NOT_EXPANDABLE],
    ['grows without a class', claim('2Gi', undefined), claim('1Gi', undefined), NOT_EXPANDABLE],
    ['grows with a class that does not exist', claim('2Gi', 'gone'), claim('1Gi', 'gone'), NOT_EXPANDABLE],
  ])('%s', async (_what, next, old, message) => {
    if (message) await expect(run(next, old)).rejects.toThrow(message);
    else await expect(run(next, old)).resolves.toBeUndefined();
  });
});
