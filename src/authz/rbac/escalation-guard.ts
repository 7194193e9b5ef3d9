/**
 * Escalation prevention on writes of roles and bindings, as Kubernetes' RBAC storage does it. A
 * user may create or change a Role or ClusterRole only with every rule in it already theirs, or
 * with the `escalate` verb on it; a ClusterRole's aggregationRule (which can gather anything) needs
 * every permission. A user may create or change a binding only when they hold every rule of the
 * role it grants, or have the `bind` verb on that role. Members of system:masters, and updates
 * that touch only what garbage collection writes, pass. Runs first in mutating admission, so the
 * object is judged as the client sent it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ClusterRole } from '../../apis/rbac/v1/clusterrole.js';
import type { PolicyRule, RoleRef } from '../../apis/rbac/v1/types.js';
import { errors, type StatusError } from '../../machinery/errors.js';
import type { UserInfo } from '../../machinery/user-info.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { KubeObject } from '../../schema/index.js';
import { PRIVILEGED_GROUP } from '../always.js';
import type { AuthorizationAttributes, Authorizer } from '../index.js';
import { covers, escalationMessage } from './covers.js';
import { RoleResolutionError, type RbacRuleResolver } from './rule-resolver.js';

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export interface EscalationGuardDeps {
  /** The RBAC group as served. */
  rbacGroup: string;
  /** The whole authorizer (every mode), asked about `escalate` and `bind`. */
  authorizer: Authorizer;
  /** RBAC's rules: what the user holds. */
  rules: RbacRuleResolver;
}

/** Shaped as an admission plugin (src/admission), which the composition root puts first. */
export interface EscalationGuard {
  readonly name: string;
  admit(attrs: AdmissionAttributes): Promise<void>;
}

export function rbacEscalationGuard(deps: EscalationGuardDeps): EscalationGuard {
  return {
    name: 'RBACEscalationPrevention',
    async admit(attrs) {
      if (attrs.group !== deps.rbacGroup || attrs.subresource) return;
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      const user = attrs.user;
      const obj = attrs.object;
      // Without authentication nothing is authorized either; system:masters may grant anything.
      if (!user || !obj || user.groups.includes(PRIVILEGED_GROUP)) return;
      if (attrs.operation === 'UPDATE' && attrs.oldObject && onlyGarbageCollectionFields(obj, attrs.oldObject)) return;
      switch (attrs.resource) {
        case 'roles':
        case 'clusterroles':
          return checkRole(deps, attrs, user, obj);
        case 'rolebindings':
        case 'clusterrolebindings':
          return checkBinding(deps, attrs, user, obj);
      }
    },
  };
}

async function allowed(deps: EscalationGuardDeps, a: AuthorizationAttributes, signal: AbortSignal): Promise<boolean> {
  return (await deps.authorizer.authorize(a, signal)).decision === 'allow';
}

function refuse(attrs: AdmissionAttributes, message: string): StatusError {
  return errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, message);
}

/** Throws 403 unless the user holds every rule (in the namespace of the write). */
function confirmNoEscalation(deps: EscalationGuardDeps, attrs: AdmissionAttributes, user: UserInfo, rules: readonly PolicyRule[]): void {
  const held = deps.rules.rulesFor(user, attrs.namespace);
  const { covered, missing } = covers(held.rules, rules);
  if (!covered) throw refuse(attrs, escalationMessage(user, missing, held.errors));
}

async function checkRole(deps: EscalationGuardDeps, attrs: AdmissionAttributes, user: UserInfo, obj: KubeObject): Promise<void> {
  const escalate = await allowed(deps, {
    user, verb: 'escalate', isResourceRequest: true, path: '', namespace: attrs.namespace, apiGroup: attrs.group, apiVersion: '*', resource: attrs.resource, subresource: '', name: attrs.name,
  }, attrs.signal);
  if (escalate) return;
  const role = obj as ClusterRole;
  confirmNoEscalation(deps, attrs, user, role.rules ?? []);
  if (attrs.resource !== 'clusterroles') return;
  const aggregates = Boolean(role.aggregationRule) || Boolean((attrs.oldObject as ClusterRole | undefined)?.aggregationRule);
  if (!aggregates) return;
  if (!covers(deps.rules.rulesFor(user, '').rules, FULL_AUTHORITY).covered) {
    throw refuse(attrs, 'must have cluster-admin privileges to use the aggregationRule');
  }
}

async function checkBinding(deps: EscalationGuardDeps, attrs: AdmissionAttributes, user: UserInfo, obj: KubeObject): Promise<void> {
  const ref = (obj as KubeObject & { roleRef?: RoleRef }).roleRef;
  if (!ref) return; // validation reports the missing roleRef
  if (ref.kind === 'ClusterRole' || ref.kind === 'Role') {
    const bind = await allowed(deps, {
      user, verb: 'bind', isResourceRequest: true, path: '', namespace: attrs.namespace, apiGroup: ref.apiGroup, apiVersion: '', resource: ref.kind === 'Role' ? 'roles' : 'clusterroles', subresource: '', name: ref.name,
    }, attrs.signal);
    if (bind) return;
  }
  let rules: readonly PolicyRule[];
  try {
    rules = deps.rules.roleReferenceRules(ref, attrs.namespace);
  } catch (e) {
    if (e instanceof RoleResolutionError) throw refuse(attrs, e.message);
    throw e;
  }
  confirmNoEscalation(deps, attrs, user, rules);
}

/** Kubernetes' IsOnlyMutatingGCFields: the change is to owner references or finalizers alone. */
function onlyGarbageCollectionFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const { ownerReferences: _o, finalizers: _f, deletionTimestamp: _d, deletionGracePeriodSeconds: _g, managedFields: _m, resourceVersion: _r, ...meta } = (o.metadata ?? {}) as Record<string, unknown>;
    return { ...o, metadata: meta };
  };
  return isDeepStrictEqual(strip(obj), strip(old));
}
