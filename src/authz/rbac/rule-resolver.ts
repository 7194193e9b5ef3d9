/**
 * Which RBAC rules apply to a user in a namespace (Kubernetes' DefaultRuleResolver), read through
 * the listers of the four RBAC kinds, so a change to a role or binding counts within the watch
 * cache's delay. Every ClusterRoleBinding that names the user, then (in a namespace) every
 * RoleBinding there; a binding whose role cannot be found, a subject of unknown kind, or a User or
 * Group subject with a namespace is reported as an error and grants nothing.
 *
 * The bindings are found through an index by subject (BINDINGS_BY_SUBJECT), not by scanning them
 * all per request: only the bindings that could name the user (by name, by one of its groups, or
 * through a subject of unknown kind, which is reported to everyone) are looked at, in the order a
 * full scan would meet them, so decisions, reasons and errors are those of the scan.
 */
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { ClusterRoleBinding } from '../../apis/rbac/v1/clusterrolebinding.js';
import type { Role } from '../../apis/rbac/v1/role.js';
import type { RoleBinding } from '../../apis/rbac/v1/rolebinding.js';
import type { PolicyRule, RoleRef, Subject } from '../../apis/rbac/v1/types.js';
import type { IndexFunction, Lister } from '../../machinery/lister.js';
import type { UserInfo } from '../../machinery/user-info.js';
import { goQuote } from '../index.js';

/** The name of the index the binding listers must keep (rbacListersOf passes bindingSubjectKeys). */
export const BINDINGS_BY_SUBJECT = 'rbac-binding-subjects';

/** A binding as the index reads it: its namespace ('' for a ClusterRoleBinding) and subjects. */
interface BindingLike {
  readonly metadata: { readonly namespace?: string | undefined };
  readonly subjects?: readonly Subject[] | null | undefined;
}

/** Index keys: the namespace, then `u` and a username, `g` and a group, or `*` for "ask everyone". */
const userKey = (namespace: string, username: string): string => `${namespace}\u0000u\u0000${username}`;
const groupKey = (namespace: string, group: string): string => `${namespace}\u0000g\u0000${group}`;
const everyoneKey = (namespace: string): string => `${namespace}\u0000*`;

/**
 * The keys a binding is filed under: one per subject that could name a user. A ServiceAccount
 * subject names exactly one username (its namespace defaults to the binding's); a subject of
 * unknown kind may concern anyone, since its error is reported to every user. Pure.
 */
export const bindingSubjectKeys: IndexFunction<BindingLike> = (binding) => {
  const namespace = binding.metadata.namespace ?? '';
  const keys = new Set<string>();
  for (const s of binding.subjects ?? []) {
    switch (s.kind) {
      case 'User':
        keys.add(userKey(namespace, s.name));
        break;
      case 'Group':
        keys.add(groupKey(namespace, s.name));
        break;
      case 'ServiceAccount': {
        const saNamespace = s.namespace || namespace;
        if (saNamespace) keys.add(userKey(namespace, serviceAccountUsername(saNamespace, s.name)));
        break;
      }
      default:
        keys.add(everyoneKey(namespace));
    }
  }
  return [...keys];
};

/** The keys a user's bindings in `namespace` are filed under. */
function keysOfUser(user: UserInfo, namespace: string): string[] {
  return [userKey(namespace, user.username), ...user.groups.map((g) => groupKey(namespace, g)), everyoneKey(namespace)];
}

/** Go's sort order of names, which is the listers' key order within one scope. */
const byName = (a: { metadata: { name?: string } }, b: { metadata: { name?: string } }): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The bindings of one scope that may name the user, each once, in the order a full list has them. */
function candidateBindings<T extends BindingLike & { metadata: { name?: string } }>(lister: Lister<T>, user: UserInfo, namespace: string): T[] {
  const found = new Set<T>();
  for (const key of keysOfUser(user, namespace)) for (const b of lister.byIndex(BINDINGS_BY_SUBJECT, key)) found.add(b);
  return [...found].sort(byName);
}

export interface RbacListers {
  readonly roles: Lister<Role>;
  readonly roleBindings: Lister<RoleBinding>;
  readonly clusterRoles: Lister<ClusterRole>;
  readonly clusterRoleBindings: Lister<ClusterRoleBinding>;
}

/** Where a rule came from, for the allow reason: `ClusterRoleBinding "x" of ClusterRole "y" to User "alice"`. */
export type RuleSource = () => string;

/** Called with each rule in turn (or an error met); returns false to stop the visit. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

export class RbacRuleResolver {
  /** @param rbacGroup the RBAC group as served, for the not-found messages. */
  constructor(
    private readonly listers: RbacListers,
    private readonly rbacGroup: string,
  ) {}

  /** The rules a role reference grants; throws the message of why it cannot be resolved. */
  roleReferenceRules(ref: Pick<RoleRef, 'kind' | 'name'>, bindingNamespace: string): readonly PolicyRule[] {
    switch (ref.kind) {
      case 'Role': {
        const role = this.listers.roles.get(bindingNamespace, ref.name);
        if (!role) throw new RoleResolutionError(`role.${this.rbacGroup} ${goQuote(ref.name)} not found`);
        return role.rules ?? [];
      }
      case 'ClusterRole': {
        const role = this.listers.clusterRoles.get('', ref.name);
        if (!role) throw new RoleResolutionError(`clusterrole.${this.rbacGroup} ${goQuote(ref.name)} not found`);
        return role.rules ?? [];
      }
      default:
        throw new RoleResolutionError(`unsupported role reference kind: ${goQuote(ref.kind)}`);
    }
  }

  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    for (const binding of candidateBindings(this.listers.clusterRoleBindings, user, '')) {
      const match = this.appliesTo(user, binding.subjects ?? [], '', `ClusterRoleBinding ${goQuote(binding.metadata.name ?? '')}`);
      for (const error of match.errors) if (!visit(undefined, undefined, error)) return;
      if (!match.subject) continue;
      const subject = match.subject;
      if (!this.visitRoleRules(binding.roleRef, '', visit, () =>
        `ClusterRoleBinding ${goQuote(binding.metadata.name ?? '')} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, '')}`)) return;
    }
    if (!namespace) return;
    for (const binding of candidateBindings(this.listers.roleBindings, user, namespace)) {
      const name = `${binding.metadata.name ?? ''}/${namespace}`;
      const match = this.appliesTo(user, binding.subjects ?? [], namespace, `RoleBinding ${goQuote(name)}`);
      for (const error of match.errors) if (!visit(undefined, undefined, error)) return;
      if (!match.subject) continue;
      const subject = match.subject;
      if (!this.visitRoleRules(binding.roleRef, namespace, visit, () =>
        `RoleBinding ${goQuote(name)} of ${binding.roleRef.kind} ${goQuote(binding.roleRef.name)} to ${describeSubject(subject, namespace)}`)) return;
    }
  }

  /** Every rule that applies, and the errors met on the way (Kubernetes' RulesFor). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return { rules, errors };
  }

  private visitRoleRules(ref: RoleRef, namespace: string, visit: RuleVisitor, source: RuleSource): boolean {
    let rules: readonly PolicyRule[];
    try {
      rules = this.roleReferenceRules(ref, namespace);
    } catch (e) {
      if (!(e instanceof RoleResolutionError)) throw e;
      return visit(undefined, undefined, e.message);
    }
    for (const rule of rules) if (!visit(source, rule, undefined)) return false;
    return true;
  }

  /**
   * The first subject that names the user, and the errors of subjects that cannot be honoured. A
   * subject of unknown kind is reported to everyone (it might have meant anyone); a User or Group
   * subject with a namespace only to those it would otherwise name.
   */
  private appliesTo(user: UserInfo, subjects: readonly Subject[], namespace: string, binding: string): { subject?: Subject; errors: string[] } {
    const errors: string[] = [];
    for (const s of subjects) {
      switch (s.kind) {
        case 'User':
        case 'Group': {
          const names = s.kind === 'User' ? user.username === s.name : user.groups.includes(s.name);
          if (!names) continue;
          if (s.namespace) {
            errors.push(`${binding}: subject ${s.kind} ${goQuote(s.name)} has namespace ${goQuote(s.namespace)}, but ${s.kind} subjects are not namespaced`);
            continue;
          }
          return { subject: s, errors };
        }
        case 'ServiceAccount': {
          const saNamespace = s.namespace || namespace;
          if (saNamespace && user.username === serviceAccountUsername(saNamespace, s.name)) return { subject: s, errors };
          continue;
        }
        default:
          errors.push(`${binding}: subject kind ${goQuote(s.kind)} is not recognized (User, Group or ServiceAccount)`);
      }
    }
    return { errors };
  }
}

export class RoleResolutionError extends Error {}
