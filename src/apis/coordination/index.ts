/** The coordination.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { leaseResource } from './v1/lease.js';

export const coordinationResources: readonly ResourceFactory[] = [leaseResource];
