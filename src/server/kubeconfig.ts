/** A kubeconfig that points kubectl at this server. */
export function kubeconfigFor(serverUrl: string, name = 'orch'): string {
  // @kubernetes/client-node 1.x refuses a plain-http server unless its cluster skips TLS
  // verification; there is no TLS to verify, and kubectl ignores the setting over http.
  const plainHttp = serverUrl.startsWith('http://') ? ['    insecure-skip-tls-verify: true'] : [];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${serverUrl}`,
    ...plainHttp,
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
