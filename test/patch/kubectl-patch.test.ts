/**
 * Real kubectl (1.27 and the newest installed) doing what a new user does with a ConfigMap:
 * `kubectl apply -f` twice with a change (the second apply is a three-way strategic merge patch
 * computed by kubectl), and `kubectl patch` of each type. Skips, saying why, when kubectl is absent.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPicks, runKubectl, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** kubectl 1.27 and the newest versioned binary beside the real kubectl, or kubectl itself when there are none. */
const kubectlVersions = (): { version: string; bin: string }[] => kubectlPicks().map((k) => ({ version: k.minor >= 0 ? `1.${k.minor}` : 'default', bin: k.bin }));

const VERSIONS = kubectlVersions();
if (VERSIONS.length === 0) console.log('skipping the kubectl patch tests: kubectl is not on PATH');

const run = (bin: string, args: string[]): Promise<Run> => runKubectl(bin, args);

function configMap(name: string, data: Record<string, string>, labels: Record<string, string> = {}): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, '  namespace: default'];
  if (Object.keys(labels).length) lines.push('  labels:', ...Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`));
  lines.push('data:', ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`));
  return `${lines.join('\n')}\n`;
}

const CM = '/api/v1/namespaces/default/configmaps';

describe.skipIf(VERSIONS.length === 0).each([{ apiDomain: 'orch.io' }, { apiDomain: 'k8s.io' }])('kubectl apply and patch under $apiDomain', ({ apiDomain }) => {
  let s: TestServer;
  let dir: string;
  let kubeconfig: string;
  beforeAll(async () => {
    s = await startTestServer({ apiDomain });
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-patch-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, s.server.kubeconfig());
  });
  afterAll(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(VERSIONS)('kubectl $version', ({ version, bin }) => {
    const tag = version.replace('.', '-');
    const kubectl = (...args: string[]): Promise<Run> => run(bin, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, `cache-${version}`), ...args]);
    const manifest = (file: string, content: string): string => {
      const path = join(dir, file);
      writeFileSync(path, content);
      return path;
    };

    it('apply -f twice with a change: the second apply is a strategic merge patch', async () => {
      const name = `applied-${tag}`;
      const file = `${name}.yaml`;
      const first = await kubectl('apply', '-f', manifest(file, configMap(name, { a: '1', gone: 'x' }, { tier: 'web' })));
      expect(first.code, first.stderr.slice(-2000)).toBe(0);
      expect(first.stdout.trim()).toBe(`configmap/${name} created`);

      // Changed value, added key, removed key, changed label: kubectl computes the three-way patch.
      const second = await kubectl('apply', '-f', manifest(file, configMap(name, { a: '2', b: '3' }, { tier: 'db' })), '-v=8');
      expect(second.code, second.stderr.slice(-3000)).toBe(0);
      expect(second.stdout.trim()).toBe(`configmap/${name} configured`);
      // Older kubectl logs `PATCH http://...`, newer `verb="PATCH" url="http://..."`.
      expect(second.stderr).toMatch(new RegExp(`(PATCH |verb="PATCH" url=")https?://[^ "]*/configmaps/${name}\\?[^ "]*fieldValidation=Strict`));
      expect(second.stderr).toContain('application/strategic-merge-patch+json');

      const got = (await s.get(`${CM}/${name}`)).body;
      expect(got.data).toEqual({ a: '2', b: '3' });
      expect(got.metadata.labels).toEqual({ tier: 'db' });
      const lastApplied = Object.entries(got.metadata.annotations ?? {}).find(([k]) => k.endsWith('last-applied-configuration'))?.[1] as string;
      expect(JSON.parse(lastApplied).data).toEqual({ a: '2', b: '3' });

      // Unchanged: nothing to send.
      const third = await kubectl('apply', '-f', join(dir, file));
      expect(third.code, third.stderr).toBe(0);
      expect(third.stdout.trim()).toBe(`configmap/${name} unchanged`);
    });

    it('apply reports an unknown field in a change and leaves the object', async () => {
      const name = `applied-bad-${tag}`;
      const file = `${name}.yaml`;
      expect((await kubectl('apply', '-f', manifest(file, configMap(name, { a: '1' })))).code).toBe(0);
      const r = await kubectl('apply', '-f', manifest(file, `${configMap(name, { a: '2' })}bogus: 1\n`));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('unknown field "bogus"');
      expect((await s.get(`${CM}/${name}`)).body.data).toEqual({ a: '1' });
    });

    it('patch --type=strategic, merge and json', async () => {
      const name = `patched-${tag}`;
      expect((await kubectl('apply', '-f', manifest(`${name}.yaml`, configMap(name, { a: '1', b: '2' })))).code).toBe(0);

      const smp = await kubectl('patch', 'configmap', name, '--type=strategic', '-p', '{"data":{"a":null,"c":"3"},"metadata":{"finalizers":["example.com/x"]}}');
      expect(smp.code, smp.stderr).toBe(0);
      expect(smp.stdout.trim()).toBe(`configmap/${name} patched`);
      let got = (await s.get(`${CM}/${name}`)).body;
      expect(got.data).toEqual({ b: '2', c: '3' });
      expect(got.metadata.finalizers).toEqual(['example.com/x']);

      // Strategic merge adds to the finalizers set; a merge patch would replace it.
      const smp2 = await kubectl('patch', 'configmap', name, '-p', '{"metadata":{"finalizers":["example.com/y"]}}');
      expect(smp2.code, smp2.stderr).toBe(0);
      expect((await s.get(`${CM}/${name}`)).body.metadata.finalizers).toEqual(['example.com/y', 'example.com/x']);

      const merge = await kubectl('patch', 'configmap', name, '--type=merge', '-p', '{"data":{"b":null,"d":"4"},"metadata":{"finalizers":null}}');
      expect(merge.code, merge.stderr).toBe(0);
      got = (await s.get(`${CM}/${name}`)).body;
      expect(got.data).toEqual({ c: '3', d: '4' });
      expect(got.metadata.finalizers).toBeUndefined();

      const json = await kubectl('patch', 'configmap', name, '--type=json', '-p', '[{"op":"replace","path":"/data/c","value":"30"},{"op":"remove","path":"/data/d"}]');
      expect(json.code, json.stderr).toBe(0);
      expect((await s.get(`${CM}/${name}`)).body.data).toEqual({ c: '30' });

      // Nothing to change.
      const noop = await kubectl('patch', 'configmap', name, '--type=strategic', '-p', '{"data":{"c":"30"}}');
      expect(noop.code, noop.stderr).toBe(0);
      expect(noop.stdout.trim()).toBe(`configmap/${name} patched (no change)`);
    });

    it('patch shows why a strategic merge patch cannot apply', async () => {
      const name = `patch-bad-${tag}`;
      expect((await kubectl('apply', '-f', manifest(`${name}.yaml`, configMap(name, { a: '1' })))).code).toBe(0);
      // A real owner, or the garbage collector would delete the dependent.
      expect((await kubectl('apply', '-f', manifest(`${name}-owner.yaml`, configMap(`${name}-owner`, {})))).code).toBe(0);
      const uid = (await s.get(`${CM}/${name}-owner`)).body.metadata.uid as string;
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-owner`, uid };
      const owner = await kubectl('patch', 'configmap', name, '-p', JSON.stringify({ metadata: { ownerReferences: [ref] } }));
      expect(owner.code, owner.stderr).toBe(0);
      // Owner references merge by uid: an entry without one cannot be matched.
      const r = await kubectl('patch', 'configmap', name, '-p', '{"metadata":{"ownerReferences":[{"name":"x"}]}}');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('map: map[name:x] does not contain declared merge key: uid');
      const bad = await kubectl('patch', 'configmap', name, '--type=json', '-p', '[{"op":"remove","path":"/data/zzz"}]');
      expect(bad.code).not.toBe(0);
      expect((await s.get(`${CM}/${name}`)).body.data).toEqual({ a: '1' });
    });
  });
});
