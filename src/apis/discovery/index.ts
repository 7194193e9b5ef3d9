/** The discovery.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { endpointSliceResource } from './v1/endpointslice.js';

export const discoveryResources: readonly ResourceFactory[] = [endpointSliceResource];
