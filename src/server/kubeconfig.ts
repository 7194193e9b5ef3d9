/** A kubeconfig that points kubectl at this server, with the CA to trust and the client credentials, when there are. */
export interface KubeconfigCredentials {
  /** PEM of the CA that signed the serving certificate; without it clients use their system roots. */
  caPem?: string;
  /** PEM client certificate and key (the administrator's). */
  clientCertPem?: string;
  clientKeyPem?: string;
}

const base64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

export function kubeconfigFor(serverUrl: string, credentials: KubeconfigCredentials = {}, name = 'orch'): string {
  const { caPem, clientCertPem, clientKeyPem } = credentials;
  // @kubernetes/client-node 1.x refuses a plain-http server unless its cluster skips TLS
  // verification; there is no TLS to verify, and kubectl ignores the setting over http.
  const plainHttp = serverUrl.startsWith('http://') ? ['    insecure-skip-tls-verify: true'] : [];
  const user = clientCertPem && clientKeyPem ? [`    client-certificate-data: ${base64(clientCertPem)}`, `    client-key-data: ${base64(clientKeyPem)}`] : [];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${serverUrl}`,
    ...plainHttp,
    ...(caPem ? [`    certificate-authority-data: ${base64(caPem)}`] : []),
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    'preferences: {}',
    'users:',
    `- name: ${name}`,
    ...(user.length ? ['  user:', ...user] : ['  user: {}']),
    '',
  ].join('\n');
}
