/**
 * Services and EndpointSlices through a real kubectl under `--api-domain=k8s.io`: create, `svc` and
 * `all`, apply twice, patch and delete. Skips, saying why, when kubectl is absent.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, withKubectlServer } from '../../helpers/kubectl.js';

const available = await kubectlRuns(DEFAULT_KUBECTL);

describe.skipIf(!available)('kubectl with Services and EndpointSlices (k8s.io)', () => {
  const { kubectl, manifest } = withKubectlServer('kubectl-svc-', { apiDomain: 'k8s.io', serviceClusterIPRange: '10.43.0.0/24', serviceNodePortRange: '31000-31099' });

  it('creates a NodePort service, and lists it as svc and under all', async () => {
    const file = manifest('web.yaml', `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  type: NodePort
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 8080
`);
    const c = await kubectl('create', '-f', file);
    expect(c.code, c.stderr).toBe(0);
    const ip = await kubectl('get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort} {.spec.ports[0].targetPort}');
    expect(ip.code, ip.stderr).toBe(0);
    const [clusterIP, nodePort, targetPort] = ip.stdout.split(' ');
    expect(clusterIP).toMatch(/^10\.43\.0\.\d+$/);
    expect(Number(nodePort)).toBeGreaterThanOrEqual(31000);
    expect(targetPort).toBe('8080');
    const all = await kubectl('get', 'all', '-o', 'name');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('service/web');
  });

  it('applies a manifest twice without losing what was allocated, and patches the type', async () => {
    const file = manifest('svc.yaml', `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  type: LoadBalancer
  selector:
    app: api
  ports:
  - name: http
    port: 80
`);
    expect((await kubectl('apply', '-f', file)).code).toBe(0);
    const first = JSON.parse((await kubectl('get', 'svc', 'api', '-o', 'json')).stdout);
    const again = await kubectl('apply', '-f', file);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse((await kubectl('get', 'svc', 'api', '-o', 'json')).stdout);
    expect(second.spec.clusterIP).toBe(first.spec.clusterIP);
    expect(second.spec.ports[0].nodePort).toBe(first.spec.ports[0].nodePort);
    const patched = await kubectl('patch', 'svc', 'api', '-p', '{"spec":{"type":"ClusterIP"}}');
    expect(patched.code, patched.stderr).toBe(0);
    const third = JSON.parse((await kubectl('get', 'svc', 'api', '-o', 'json')).stdout);
    expect(third.spec.ports[0].nodePort).toBeUndefined();
    expect(third.spec.allocateLoadBalancerNodePorts).toBeUndefined();
    const refused = await kubectl('patch', 'svc', 'api', '-p', '{"spec":{"clusterIP":"10.43.0.2","clusterIPs":["10.43.0.2"]}}');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('may not change once set');
    expect((await kubectl('delete', 'svc', 'api')).code).toBe(0);
  });

  it('applies an EndpointSlice', async () => {
    const file = manifest('eps.yaml', `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-abc
  labels:
    kubernetes.io/service-name: web
addressType: IPv4
ports:
- name: http
  port: 8080
endpoints:
- addresses: ["10.1.2.3"]
  conditions:
    ready: true
`);
    const r = await kubectl('apply', '-f', file);
    expect(r.code, r.stderr).toBe(0);
    const got = await kubectl('get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[0].endpoints[0].addresses[0]}');
    expect(got.stdout).toBe('10.1.2.3');
  });
});
