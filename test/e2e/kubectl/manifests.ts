/** The YAML manifests the kubectl e2e suite feeds to `kubectl create|apply|diff -f`. */

const map = (indent: string, entries: Record<string, string>): string[] => Object.entries(entries).map(([k, v]) => `${indent}${k}: ${JSON.stringify(v)}`);

export function namespace(name: string): string {
  return ['apiVersion: v1', 'kind: Namespace', 'metadata:', `  name: ${name}`, ''].join('\n');
}

export function configMap(name: string, ns: string, data: Record<string, string>, labels: Record<string, string> = {}, finalizers: string[] = []): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, `  namespace: ${ns}`];
  if (Object.keys(labels).length) lines.push('  labels:', ...map('    ', labels));
  if (finalizers.length) lines.push('  finalizers:', ...finalizers.map((f) => `  - ${f}`));
  if (Object.keys(data).length) lines.push('data:', ...map('  ', data));
  return `${lines.join('\n')}\n`;
}

/** A Deployment of one nginx container `c` selecting `app: NAME`; `env` sets its variable A. */
export function deployment(name: string, ns: string, opts: { replicas: number; env?: string; tier?: string }): string {
  const lines = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, `  namespace: ${ns}`];
  if (opts.tier) lines.push('  labels:', `    tier: ${opts.tier}`);
  lines.push(
    'spec:',
    `  replicas: ${opts.replicas}`,
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    '      - name: c',
    '        image: nginx:1.25',
  );
  if (opts.env !== undefined) lines.push('        env:', '        - name: A', `          value: ${JSON.stringify(opts.env)}`);
  return `${lines.join('\n')}\n`;
}

export function service(name: string, ns: string): string {
  return [
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${ns}`,
    'spec:',
    '  selector:',
    `    app: ${name}`,
    '  ports:',
    '  - name: http',
    '    port: 80',
    '    targetPort: 8080',
    '',
  ].join('\n');
}

export function pod(name: string, ns: string): string {
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${ns}`,
    'spec:',
    '  containers:',
    '  - name: main',
    '    image: busybox:1.36',
    '    command: [sleep, "3600"]',
    '',
  ].join('\n');
}
