/**
 * Who controllers are: kube-controller-manager with `--use-service-account-credentials` acts for each
 * controller as a service account in the system namespace (bound by the default policy to its
 * `system:controller:<name>` role); leader election and the controllers without an account of their
 * own act as the controller manager's user. Pure.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { UserInfo } from '../../machinery/user-info.js';

/** `system:kube-controller-manager` under k8s.io, `system:orch-controller-manager` under orch.io. */
export function controllerManagerUser(names: ApiNames): UserInfo {
  return { username: `system:${names.prefix}-controller-manager`, groups: ['system:authenticated'] };
}

/** The Lease the controller managers elect their leader with, in the system namespace. */
export function controllerManagerLeaseName(names: ApiNames): string {
  return `${names.prefix}-controller-manager`;
}

export function serviceAccountUser(names: ApiNames, account: string): UserInfo {
  const ns = names.systemNamespace;
  return { username: `system:serviceaccount:${ns}:${account}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] };
}
