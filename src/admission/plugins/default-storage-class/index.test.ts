import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import { createApiNames } from '../../../machinery/api-names.js';
import { attrs, obj } from '../testing/attrs.js';
import { defaultStorageClass, type StorageClassInfo } from './index.js';

const DEFAULT = 'storageclass.orch.io/is-default-class';
const BETA = 'storageclass.beta.orch.io/is-default-class';
const sc = (name: string, annotations?: Record<string, string>): StorageClassInfo => ({ metadata: { name, ...(annotations ? { annotations } : {}) } });

describe('DefaultStorageClass', () => {
  const run = async (classes: StorageClassInfo[], spec: Record<string, unknown>, annotations?: Record<string, string>) => {
    const claim = obj('c', { spec }, annotations ? { annotations } : {});
    await defaultStorageClass(createApiNames(), staticLister(classes)).admit?.(attrs({ resource: 'persistentvolumeclaims', object: claim }));
    return (claim.spec as { storageClassName?: string }).storageClassName;
  };

  it.each([
    ['the default', [sc('a'), sc('gold', { [DEFAULT]: 'true' })], {}, undefined, 'gold'],
    ['the beta default', [sc('silver', { [BETA]: 'true' })], {}, undefined, 'silver'],
    ['nothing without a default', [sc('a', { [DEFAULT]: 'True' })], {}, undefined, undefined],
    ['the class the claim names', [sc('gold', { [DEFAULT]: 'true' })], { storageClassName: 'x' }, undefined, 'x'],
    ['"" (no class) as asked', [sc('gold', { [DEFAULT]: 'true' })], { storageClassName: '' }, undefined, ''],
    ['nothing with the legacy annotation', [sc('gold', { [DEFAULT]: 'true' })], {}, { 'volume.beta.orch.io/storage-class': 'x' }, undefined],
  ])('gives %s', async (_what, classes, spec, annotations, expected) => {
    expect(await run(classes, spec, annotations)).toBe(expected);
  });

  it('refuses a claim while two classes are the default, as Kubernetes 1.25', async () => {
    await expect(run([sc('a', { [DEFAULT]: 'true' }), sc('b', { [BETA]: 'true' })], {})).rejects.toThrow(
      'persistentvolumeclaims "c" is forbidden: Internal error occurred: 2 default StorageClasses were found',
    );
  });
});
