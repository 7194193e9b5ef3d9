/**
 * RoleBinding and ClusterRoleBinding columns: ROLE, AGE; USERS, GROUPS, SERVICEACCOUNTS for -o wide.
 * Role and ClusterRole keep the default table (Name, Created At), as in Kubernetes.
 */
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type BindingShape = KubeObject & {
  roleRef?: { kind?: string; name?: string };
  subjects?: { kind?: string; name?: string; namespace?: string }[];
};

export const bindingTable = defineTable<BindingShape>({
  columns: [
    nameColumn,
    column('Role', 'The role the binding grants, as kind/name'),
    ageColumn,
    column('Users', 'Users in the binding', { priority: 1 }),
    column('Groups', 'Groups in the binding', { priority: 1 }),
    column('ServiceAccounts', 'ServiceAccounts in the binding, as namespace:name', { priority: 1 }),
  ],
  cells: (b, ctx) => {
    const subjects = b.subjects ?? [];
    const of = (kind: string): { name?: string; namespace?: string }[] => subjects.filter((s) => s.kind === kind);
    return [
      b.metadata.name ?? '',
      `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
      age(b, ctx),
      of('User').map((s) => s.name ?? '').join(', '),
      of('Group').map((s) => s.name ?? '').join(', '),
      of('ServiceAccount').map((s) => `${s.namespace ?? ''}:${s.name ?? ''}`).join(', '),
    ];
  },
});
