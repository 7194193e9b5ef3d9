/**
 * Grants for suites about something other than authorization, now that the default mode is RBAC:
 * bind a ClusterRole to a group as the administrator, and wait until the authorizer sees it (RBAC
 * reads bindings through the watch cache, so a grant counts a moment after it is stored).
 */
import { httpCall, type Target } from './server.js';

export async function grantClusterRoleToGroup(admin: Target, clusterRole: string, group: string, apiDomain = 'orch.io'): Promise<void> {
  const rbacGroup = `rbac.authorization.${apiDomain}`;
  const name = `test-${clusterRole}-${group}`.replace(/[^a-z0-9.-]+/g, '-');
  const binding = { metadata: { name }, roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: clusterRole }, subjects: [{ kind: 'Group', apiGroup: rbacGroup, name: group }] };
  const made = await httpCall(admin, 'POST', `/apis/${rbacGroup}/v1/clusterrolebindings`, { body: binding });
  if (made.status !== 201) throw new Error(`binding ${clusterRole} to ${group}: ${made.status} ${made.text}`);
  const rules = await httpCall(admin, 'GET', `/apis/${rbacGroup}/v1/clusterroles/${clusterRole}`);
  const first = (rules.body?.rules as { verbs: string[]; apiGroups?: string[]; resources?: string[] }[] | undefined)?.find((r) => r.resources?.length);
  if (!first) return;
  const review = {
    spec: { user: 'grant-probe', groups: [group], resourceAttributes: { verb: first.verbs[0], group: first.apiGroups?.[0] ?? '', resource: first.resources![0], namespace: 'default' } },
  };
  for (let i = 0; i < 250; i++) {
    const r = await httpCall(admin, 'POST', `/apis/authorization.${apiDomain}/v1/subjectaccessreviews`, { body: review });
    if (r.body?.status?.allowed === true) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the binding of ${clusterRole} to ${group} never took effect`);
}
