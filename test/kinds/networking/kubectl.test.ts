/**
 * The networking and flowcontrol kinds through a real kubectl under `--api-domain=k8s.io`: short
 * names, client-side validation against our OpenAPI, the default IngressClass, and kubectl's own
 * rendering of the deprecation warning. Skips, saying why, when kubectl is not installed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, withKubectlServer } from '../../helpers/kubectl.js';

const available = await kubectlRuns(DEFAULT_KUBECTL);

describe.skipIf(!available)('kubectl with the networking and flowcontrol kinds (k8s.io)', () => {
  const { kubectl, manifest } = withKubectlServer('kubectl-net-', { apiDomain: 'k8s.io' });

  it('applies a default IngressClass and an Ingress without a class, which gets it; `ing` lists it', async () => {
    const file = manifest(
      'ingress.yaml',
      `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations:
    ingressclass.kubernetes.io/is-default-class: "true"
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: default
spec:
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
`,
    );
    const applied = await kubectl('apply', '-f', file);
    expect(applied.code, applied.stderr).toBe(0);
    const cls = await kubectl('get', 'ing', 'web', '-n', 'default', '-o', 'jsonpath={.spec.ingressClassName}');
    expect(cls.code, cls.stderr).toBe(0);
    expect(cls.stdout).toBe('nginx');
    const listed = await kubectl('get', 'ingressclasses', '-o', 'name');
    expect(listed.stdout.trim()).toBe('ingressclass.networking.k8s.io/nginx');
  });

  it('reports a validation failure of an Ingress as the server words it', async () => {
    const file = manifest(
      'bad.yaml',
      `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: bad
  namespace: default
spec:
  rules:
  - http:
      paths:
      - path: /
        pathType: Regex
        backend:
          service:
            name: web
            port:
              number: 80
`,
    );
    const r = await kubectl('apply', '-f', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex"');
  });

  it('shows the deprecation warning of flowcontrol v1beta1 and serves the same objects as v1beta2', async () => {
    const file = manifest(
      'pl.yaml',
      `apiVersion: flowcontrol.apiserver.k8s.io/v1beta2
kind: PriorityLevelConfiguration
metadata:
  name: workload
spec:
  type: Limited
  limited:
    limitResponse:
      type: Queue
      queuing: {}
`,
    );
    const applied = await kubectl('apply', '-f', file);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain('deprecated');
    const old = await kubectl('get', 'prioritylevelconfigurations.v1beta1.flowcontrol.apiserver.k8s.io', 'workload', '-o', 'jsonpath={.apiVersion} {.spec.limited.assuredConcurrencyShares}');
    expect(old.code, old.stderr).toBe(0);
    expect(old.stdout).toBe('flowcontrol.apiserver.k8s.io/v1beta1 30');
    expect(old.stderr).toContain(
      'Warning: flowcontrol.apiserver.k8s.io/v1beta1 PriorityLevelConfiguration is deprecated in v1.23+, unavailable in v1.26+; use flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration',
    );
  });
});
