/**
 * The workload kinds through a real kubectl under `--api-domain=k8s.io`: create, run, get with short
 * names and the `all` category, scale through /scale, and client-side validation against our
 * OpenAPI. Skips, saying why, when kubectl is not installed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, withKubectlServer } from '../../helpers/kubectl.js';

const available = await kubectlRuns(DEFAULT_KUBECTL);

describe.skipIf(!available)('kubectl with pods, deployments, replica sets and controller revisions (k8s.io)', () => {
  const { kubectl, manifest } = withKubectlServer('kubectl-apps-', { apiDomain: 'k8s.io' });

  it('creates a deployment and scales it through /scale', async () => {
    const file = manifest(
      'web.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`,
    );
    const created = await kubectl('create', '-f', file);
    expect(created.code, created.stderr).toBe(0);
    const scaled = await kubectl('scale', 'deployment', 'web', '--replicas=5');
    expect(scaled.code, scaled.stderr).toBe(0);
    expect(scaled.stdout).toContain('deployment.apps/web scaled');
    const got = await kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation} {.spec.strategy.rollingUpdate.maxSurge}');
    expect(got.stdout).toBe('5 2 25%');
  });

  it('applies a deployment twice, switching to Recreate: retainKeys drops the rolling update parameters', async () => {
    const doc = (type: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: flip
spec:
  selector:
    matchLabels: {app: flip}
  strategy:
    type: ${type}
  template:
    metadata:
      labels: {app: flip}
    spec:
      containers:
      - name: c
        image: nginx:1.25
`;
    const first = await kubectl('apply', '-f', manifest('flip1.yaml', doc('RollingUpdate')));
    expect(first.code, first.stderr).toBe(0);
    const second = await kubectl('apply', '-f', manifest('flip2.yaml', doc('Recreate')));
    expect(second.code, second.stderr).toBe(0);
    const got = await kubectl('get', 'deploy', 'flip', '-o', 'jsonpath={.spec.strategy}');
    expect(JSON.parse(got.stdout)).toEqual({ type: 'Recreate' });
  });

  it('runs a pod and finds it by short name, field selector and the all category', async () => {
    const ran = await kubectl('run', 'solo', '--image=busybox:1.36', '--restart=Never', '--', 'sleep', '3600');
    expect(ran.code, ran.stderr).toBe(0);
    const po = await kubectl('get', 'po', 'solo', '-o', 'jsonpath={.spec.restartPolicy} {.status.phase} {.status.qosClass}');
    expect(po.stdout).toBe('Never Pending BestEffort');
    const sel = await kubectl('get', 'pods', '--field-selector=status.phase=Pending', '-o', 'name');
    expect(sel.stdout).toContain('pod/solo');
    const all = await kubectl('get', 'all', '-o', 'name');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('pod/solo');
    expect(all.stdout).toContain('deployment.apps/web');
  });

  it('applies manifests that pass its client-side validation, and reports the server’s rule violations', async () => {
    const file = manifest(
      'rs.yaml',
      `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: front
spec:
  replicas: 1
  selector:
    matchLabels: {app: front}
  template:
    metadata:
      labels: {app: front}
    spec:
      containers:
      - name: front
        image: nginx:1.25
        ports:
        - containerPort: 80
        resources:
          limits: {cpu: 500m, memory: 128Mi}
---
apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: front-1
data:
  spec: {replicas: 1}
revision: 1
`,
    );
    const applied = await kubectl('apply', '-f', file);
    expect(applied.code, applied.stderr).toBe(0);
    const rs = await kubectl('get', 'rs', 'front', '-o', 'jsonpath={.spec.template.spec.containers[0].imagePullPolicy}');
    expect(rs.stdout).toBe('IfNotPresent');
    const cr = await kubectl('get', 'controllerrevisions', 'front-1', '-o', 'jsonpath={.revision}');
    expect(cr.stdout).toBe('1');

    const bad = manifest(
      'bad.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  selector:
    matchLabels: {app: a}
  template:
    metadata:
      labels: {app: b}
    spec:
      containers:
      - name: c
        image: nginx:1.25
`,
    );
    const refused = await kubectl('create', '-f', bad);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value:');
    expect(refused.stderr).toContain('`selector` does not match template `labels`');
  });

  it('refuses an unknown field in a pod spec through server-side field validation', async () => {
    const file = manifest(
      'pod.yaml',
      `apiVersion: v1
kind: Pod
metadata:
  name: typo
spec:
  containers:
  - name: c
    image: nginx:1.25
    imagePulPolicy: Always
`,
    );
    const r = await kubectl('create', '-f', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('imagePulPolicy');
  });
});
