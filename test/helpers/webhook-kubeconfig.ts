/**
 * The kubeconfig a server reads to call a webhook (authorization, token review, audit): one cluster,
 * one user with a bearer token, as kube-apiserver's webhook flags expect it.
 */
import { writeFileSync } from 'node:fs';

export interface WebhookKubeconfig {
  server: string;
  /** A CA file path, relative to the kubeconfig's directory or absolute; left out to trust the system roots. */
  certificateAuthority?: string;
  token?: string;
}

export function writeWebhookKubeconfig(path: string, c: WebhookKubeconfig): string {
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: authz',
      '  cluster:',
      `    server: ${c.server}`,
      ...(c.certificateAuthority ? [`    certificate-authority: ${c.certificateAuthority}`] : []),
      'users:',
      '- name: apiserver',
      '  user:',
      `    token: ${c.token ?? 'not-a-real-secret'}`,
      'contexts:',
      '- name: webhook',
      '  context: { cluster: authz, user: apiserver }',
      'current-context: webhook',
    ].join('\n'),
  );
  return path;
}
