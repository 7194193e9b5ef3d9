/** The storage.<domain> kinds (v1, and CSIStorageCapacity also at the deprecated v1beta1): one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { csiDriverResource } from './v1/csidriver.js';
import { csiNodeResource } from './v1/csinode.js';
import { csiStorageCapacityResource } from './v1/csistoragecapacity.js';
import { storageClassResource } from './v1/storageclass.js';
import { volumeAttachmentResource } from './v1/volumeattachment.js';
import { csiStorageCapacityV1beta1Resource } from './v1beta1/csistoragecapacity.js';

export const storageResources: readonly ResourceFactory[] = [
  csiDriverResource,
  csiNodeResource,
  csiStorageCapacityResource,
  storageClassResource,
  volumeAttachmentResource,
  csiStorageCapacityV1beta1Resource,
];
