/** The rbac.authorization.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';

export const rbacResources: readonly ResourceFactory[] = [];
