/** A kubeconfig that points kubectl at this server. */
export function kubeconfigFor(serverUrl: string, name = 'orch'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${serverUrl}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    'preferences: {}',
    'users:',
    `- name: ${name}`,
    '  user: {}',
    '',
  ].join('\n');
}
