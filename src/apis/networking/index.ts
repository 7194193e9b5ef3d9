/** The networking.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { ingressResource } from './v1/ingress.js';
import { ingressClassResource } from './v1/ingress-class.js';
import { networkPolicyResource } from './v1/networkpolicy.js';

export const networkingResources: readonly ResourceFactory[] = [ingressClassResource, ingressResource, networkPolicyResource];
