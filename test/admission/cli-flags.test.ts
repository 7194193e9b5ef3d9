/** The admission flags of the command: refused names and values exit 2 with a clear message; good ones take effect. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/index.js';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from '../e2e/helpers/cli.js';

beforeAll(() => {
  console.log(`admission cli: ${ensureBuilt()}`);
});

describe('admission flags', () => {
  it.each([
    [['--enable-admission-plugins=NamespaceLifecycle,Nope'], 'enable-admission-plugins plugin "Nope" is unknown; the plugins this server implements are: NamespaceLifecycle, SecurityContextDeny, LimitRanger'],
    [['--disable-admission-plugins', 'priority'], 'disable-admission-plugins plugin "priority" is unknown'],
    [['--enable-admission-plugins=AlwaysPullImages'], 'enable-admission-plugins plugin "AlwaysPullImages" is a Kubernetes 1.25 admission plugin this server does not implement'],
    [['--enable-admission-plugins=LimitRanger', '--disable-admission-plugins=LimitRanger'], '[LimitRanger] in enable-admission-plugins and disable-admission-plugins overlapped'],
    [['--default-not-ready-toleration-seconds=5m'], 'invalid argument "5m" for "--default-not-ready-toleration-seconds" flag'],
  ])('refuses %j', async (args, message) => {
    const r = await runCli([...args, '--insecure-plain-http']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('refuses an admission configuration file it cannot use, before opening anything', async () => {
    const dir = tempDir();
    try {
      const bad = join(dir, 'admission.yaml');
      writeFileSync(bad, 'apiVersion: apiserver.config.orch.io/v9\nkind: AdmissionConfiguration\n');
      const r = await runCli(['--insecure-plain-http', '--secure-port=0', `--data-dir=${join(dir, 'data')}`, `--admission-control-config-file=${bad}`]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`admission control configuration ${bad}: expected kind AdmissionConfiguration with apiVersion apiserver.config.orch.io/v1 or apiserver.orch.io/v1alpha1`);
      await expect(createServer({ plainHttp: true, logLevel: 'silent', admission: { configFile: join(dir, 'missing.yaml') } })).rejects.toThrow('cannot read it: ENOENT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a server started with them', () => {
    let server: CliServer;
    const dir = tempDir();
    beforeAll(async () => {
      const config = join(dir, 'admission.yaml');
      // NamespaceLifecycle reads no configuration; its file must still be readable, as in Kubernetes.
      writeFileSync(join(dir, 'ns.yaml'), 'unused: true\n');
      writeFileSync(config, 'apiVersion: apiserver.config.orch.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: NamespaceLifecycle\n  path: ns.yaml\n');
      server = await startCli([
        '--disable-admission-plugins=DefaultTolerationSeconds',
        '--enable-admission-plugins',
        'SecurityContextDeny',
        '--disable-admission-plugins=ResourceQuota,Priority',
        `--admission-control-config-file=${config}`,
      ]);
    });
    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs what they enable and not what they disable', async () => {
      expect((await httpCall(server.url, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'x' } } })).status).toBe(201);
      const refused = await httpCall(server.url, 'POST', '/api/v1/namespaces/x/pods', { body: { metadata: { name: 'p' }, spec: { securityContext: { fsGroup: 1 }, containers: [{ name: 'c', image: 'i' }] } } });
      expect([refused.status, refused.body.message]).toEqual([403, 'pods "p" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden']);
      const p = await httpCall(server.url, 'POST', '/api/v1/namespaces/x/pods', { body: { metadata: { name: 'p' }, spec: { priorityClassName: 'anything', containers: [{ name: 'c', image: 'i' }] } } });
      expect(p.status, p.text).toBe(201);
      expect(p.body.spec.tolerations).toBeUndefined();
      expect(p.body.spec.priority).toBeUndefined();
    });
  });
});
