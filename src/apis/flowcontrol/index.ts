/** The flowcontrol.apiserver.<domain>/v1beta2 (and v1beta1, deprecated) kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';

export const flowcontrolResources: readonly ResourceFactory[] = [];
