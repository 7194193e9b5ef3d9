/** The rbac.authorization.<domain>/v1 kinds: one file per kind, listed here in discovery order. */
import type { ResourceFactory } from '../../registry/define-resource.js';
import { clusterRoleBindingResource } from './v1/clusterrolebinding.js';
import { clusterRoleResource } from './v1/clusterrole.js';
import { roleBindingResource } from './v1/rolebinding.js';
import { roleResource } from './v1/role.js';

export const rbacResources: readonly ResourceFactory[] = [clusterRoleBindingResource, clusterRoleResource, roleBindingResource, roleResource];
