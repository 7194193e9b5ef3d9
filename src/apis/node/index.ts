/** The node.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { runtimeClassResource } from './v1/runtimeclass.js';

export const nodeResources: readonly ResourceFactory[] = [runtimeClassResource];
