/**
 * Creates and reconciles the default RBAC policy at start, as kube-apiserver's post-start hook:
 * missing defaults are created, stored ones gain what the defaults add (never losing what an
 * operator added), and an object annotated autoupdate "false" is left alone, with a warning when it
 * lacks something. A conflict with another server doing the same is retried.
 */
import { autoupdateAnnotation, bootstrapPolicy } from '../authz/rbac/bootstrap-policy.js';
import { reconcileBinding, reconcileRole, type Reconciled } from '../authz/rbac/reconcile.js';
import type { InProcessClient, ResourceClient } from '../client/in-process-client.js';
import type { ApiNames } from '../machinery/api-names.js';
import { isStatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';
import type { KubeObject } from '../schema/index.js';

const ATTEMPTS = 5;

export async function ensureRbacPolicy(client: InProcessClient, names: ApiNames, log: Logger): Promise<void> {
  const group = names.group('rbac.authorization');
  const policy = bootstrapPolicy(names);
  const autoupdate = autoupdateAnnotation(names);
  const roleOf = (r: KubeObject | undefined, e: KubeObject) => reconcileRole(r as never, e as never, autoupdate) as Reconciled<KubeObject>;
  const bindingOf = (r: KubeObject | undefined, e: KubeObject) => reconcileBinding(r as never, e as never, autoupdate) as Reconciled<KubeObject>;
  const kinds: [string, KubeObject[], typeof roleOf][] = [
    ['clusterroles', policy.clusterRoles as KubeObject[], roleOf],
    ['clusterrolebindings', policy.clusterRoleBindings as KubeObject[], bindingOf],
    ['roles', policy.roles as KubeObject[], roleOf],
    ['rolebindings', policy.roleBindings as KubeObject[], bindingOf],
  ];
  for (const [resource, objects, reconcile] of kinds) {
    const rc = client.resource(group, resource);
    for (const expected of objects) await reconcileOne(rc, resource, expected, reconcile, log);
  }
}

async function reconcileOne(rc: ResourceClient, resource: string, expected: KubeObject, reconcile: (existing: KubeObject | undefined, expected: KubeObject) => Reconciled<KubeObject>, log: Logger): Promise<void> {
  const namespace = (expected.metadata.namespace as string | undefined) ?? '';
  const name = expected.metadata.name as string;
  for (let attempt = 1; ; attempt++) {
    try {
      const existing = await rc.get(namespace, name);
      const result = reconcile(existing, expected);
      if (result.operation === 'none') return;
      if (result.protected) {
        log.warn('skipped reconcile-protected default RBAC object', { resource, name, namespace, missingRules: result.missingRules.length, missingSubjects: result.missingSubjects.length });
        return;
      }
      switch (result.operation) {
        case 'create':
          await rc.create(namespace, result.object);
          break;
        case 'update':
          await rc.update(namespace, name, (current) => {
            // Retried on conflict with the stored object read again.
            const again = reconcile(current, expected);
            return again.object;
          });
          break;
        case 'recreate':
          await rc.delete(namespace, name);
          await rc.create(namespace, result.object);
          break;
      }
      return;
    } catch (e) {
      const retry = isStatusError(e, 'Conflict') || isStatusError(e, 'AlreadyExists') || isStatusError(e, 'NotFound');
      if (!retry || attempt >= ATTEMPTS) throw e;
    }
  }
}
