/**
 * CSIStorageCapacity at storage.<domain>/v1beta1: deprecated in 1.24, gone in 1.27. The same
 * fields as v1, served from the v1 store; every request is warned.
 */
import { defineVersion, type VersionConversion } from '../../../registry/define-resource.js';
import { csiStorageCapacityResource, csiStorageCapacitySchema } from '../v1/csistoragecapacity.js';

export const csiStorageCapacityV1beta1Resource = defineVersion(csiStorageCapacityResource, (names) => {
  const group = names.group('storage');
  const as = (version: string): VersionConversion['toHub'] => (obj) => ({ ...obj, apiVersion: `${group}/${version}` });
  return {
    version: 'v1beta1',
    schema: csiStorageCapacitySchema('v1beta1'),
    conversion: { toHub: as('v1'), fromHub: as('v1beta1') },
    deprecation: { deprecatedIn: '1.24', removedIn: '1.27', replacement: `${group}/v1` },
  };
});
